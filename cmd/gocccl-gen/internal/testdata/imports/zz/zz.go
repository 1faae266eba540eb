// Package zz holds an operator that package vec calls: its path sorts
// after vec's, so the generated source must declare it before vec's bodies.
package zz

//gocccl:op
func Half(x float32) float32 { return x / 2 }
