// Package reject_rule_goroutine: go statements are rejected.
package reject_rule_goroutine

//gocccl:op
func Double(a int32) int32 { return a * 2 }

//gocccl:op
func Spawn(a int32) int32 {
	go Double(a) // want `go statements are not allowed in operators: an operator runs on one GPU thread; call the function directly \(the algorithm already runs operators in parallel\)`
	return a
}

//gocccl:op
func SpawnClosure(a int32) int32 {
	if a > 0 {
		go func() {}() // want `go statements are not allowed in operators`
	}
	return a
}
