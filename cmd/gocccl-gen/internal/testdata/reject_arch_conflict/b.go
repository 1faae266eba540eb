package reject_arch_conflict

//gocccl:arch sm_75 // want `//gocccl:arch sm_75 conflicts with //gocccl:arch sm_80,sm_90 at a.go:4:1`

//gocccl:op
func Add(a, b int32) int32 { return a + b }
