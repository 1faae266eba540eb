// Package reject_arch_placement puts //gocccl:arch where it would seem to
// apply to one declaration only, and misspells it.
package reject_arch_placement

// Add has the directive in its doc comment.
//
//gocccl:op
//gocccl:arch sm_80 // want `//gocccl:arch applies to the whole package: write it on a line of its own outside declarations`
func Add(a, b int32) int32 {
	//gocccl:arch sm_90 // want `//gocccl:arch applies to the whole package`
	return a + b
}

var (
	//gocccl:arch sm_90 // want `//gocccl:arch applies to the whole package`
	x = 1
)

// gocccl:arch sm_80 // want `malformed directive: did you mean //gocccl:arch\?`

// GOCCCL:arch sm_80 // want `malformed directive: did you mean //gocccl:arch\?`

/*gocccl:arch sm_80*/ // want `gocccl directives must be line comments`
