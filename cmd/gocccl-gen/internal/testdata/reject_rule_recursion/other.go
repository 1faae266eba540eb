package reject_rule_recursion

// The cycle through Ping is reported here: other.go comes before
// recursion.go, so Pong is the first operator of the cycle in source order.

//gocccl:op
func Pong(n int32) int32 { return Pang(n) + 1 } // want `recursion is not allowed in operators: Pong → Pang → Ping → Pong`

//gocccl:op
func Pang(n int32) int32 { return Ping(n) * 2 }
