// Package reject_rule_channel: channel types, sends, receives, select and
// close are rejected.
package reject_rule_channel

//gocccl:op
func Param(c chan int32) int32 { return 0 } // want `channels are not allowed in operators: pass values as parameters and return results`

//gocccl:op
func Local(a int32) int32 {
	var c <-chan int32 // want `channels are not allowed in operators: pass values as parameters and return results`
	_ = c
	return a
}

//gocccl:op
func Send(c chan int32) int32 { // want `channels are not allowed in operators`
	c <- 1
	return 0
}

var ch = make(chan int32, 1)

//gocccl:op
func SendGlobal(a int32) int32 {
	ch <- a // want `channel sends are not allowed in operators: return the value instead`
	return a
}

//gocccl:op
func Receive(a int32) int32 {
	return a + <-ch // want `channel receives are not allowed in operators: pass the value as a parameter`
}

//gocccl:op
func Select(a int32) int32 {
	select { // want `select statements are not allowed in operators: operators have no channels; pass values as parameters and return results`
	default:
	}
	return a
}

//gocccl:op
func Close(a int32) int32 {
	close(ch) // want `close is not allowed in operators: operators have no channels; pass values as parameters and return results`
	return a
}
