//go:build foo

package goflags

import "github.com/gocccl/gocccl/runtime"

var _ = runtime.Reduce(Add)
