// Package directives holds malformed and misplaced //gocccl:op directives.
package directives

// gocccl:op // want `malformed directive: did you mean //gocccl:op\? \(directives are lower case, with no space after "//" or "gocccl:"\)`
func Spaced(a, b int32) int32 { return a + b }

//gocccl:opx // want `unknown directive //gocccl:opx: did you mean //gocccl:op\?`
func Typo(a, b int32) int32 { return a + b }

// GOCCCL:op // want `malformed directive: did you mean //gocccl:op\?`
func Upper(a, b int32) int32 { return a + b }

// gocccl: op // want `malformed directive: did you mean //gocccl:op\?`
func ColonSpace(a, b int32) int32 { return a + b }

/*gocccl:op*/                // want `gocccl directives must be line comments: write //gocccl:op on a line of its own`
func Block(a, b int32) int32 { return a + b }

//gocccl:op turbo // want `unknown //gocccl:op option "turbo" \(known options: fastmath\)`
func Turbo(a, b int32) int32 { return a + b }

//gocccl:op fastmath fastmath // want `duplicate //gocccl:op option "fastmath"`
func Twice(a, b float32) float32 { return a + b }

//gocccl:op
//gocccl:op // want `duplicate //gocccl:op directive`
func Duplicate(a, b int32) int32 { return a + b }

//gocccl:op // want `//gocccl:op must be in the doc comment of a top-level function, directly above its func line`
var NotAFunc = 1

//gocccl:op // want `//gocccl:op must be in the doc comment`

func Detached(a, b int32) int32 { return a + b }

func Inside(a, b int32) int32 {
	//gocccl:op // want `//gocccl:op must be in the doc comment`
	return a + b
}

func Trailing(a int32) int32 { return a } //gocccl:op // want `//gocccl:op must be in the doc comment`

// Prose that mentions gocccl: op and //gocccl:op inside a sentence is fine.
func Prose() {}
