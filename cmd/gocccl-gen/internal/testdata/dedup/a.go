// Package dedup declares the same instances several times, in several files
// and through several import names: each is one instance at its first call.
package dedup

import (
	"github.com/gocccl/gocccl/runtime"
)

//gocccl:op
func Max(a, b uint16) uint16 {
	if a > b {
		return a
	}
	return b
}

var First = runtime.Reduce(Max)
