// Package statements holds operators with statements outside the subset.
package statements

var ch = make(chan int32, 1)

//gocccl:op
func For(a int32) int32 {
	for i := int32(0); i < 3; i++ {
		a += i
	}
	return a
}

//gocccl:op
func Range(a int32) int32 {
	for i := range 3 {
		a += int32(i)
	}
	return a
}

//gocccl:op
func Switch(a int32) int32 {
	switch a {
	case 1:
		return 2
	}
	return a
}

//gocccl:op
func TypeSwitch(a int32) int32 {
	var x any = a     // want `interfaces are not allowed in operators`
	switch x.(type) { // want `type switches are not allowed in operators: operators have no interfaces`
	}
	return a
}

//gocccl:op
func Select(a int32) int32 {
	select { // want `select statements are not allowed in operators: operators have no channels`
	default:
	}
	return a
}

//gocccl:op
func Go(a int32) int32 {
	go For(a) // want `go statements are not allowed in operators: an operator runs on one GPU thread`
	return a
}

//gocccl:op
func Defer(a int32) int32 {
	defer For(a) // want `defer is not allowed in operators`
	return a
}

//gocccl:op
func Goto(a int32) int32 {
	goto done // want `goto is not allowed in operators`
done: // want `label done is not on a for or switch statement: operators use labels only to break or continue loops and switches \(goto is not allowed\)`
	return a
}

//gocccl:op
func Send(a int32) int32 {
	ch <- a // want `channel sends are not allowed in operators`
	return a
}

//gocccl:op
func TypeDecl(a int32) int32 {
	type local int32 // want `type declarations are not allowed in operators: declare the type at package level`
	return a
}
