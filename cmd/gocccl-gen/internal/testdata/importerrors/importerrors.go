// Package importerrors calls operators of a package that has errors.
package importerrors

import "github.com/gocccl/gocccl/cmd/gocccl-gen/internal/testdata/importerrors/bad"

//gocccl:op
func UseTwice(a int32) int32 {
	return bad.Twice(a) // want `cannot call bad.Twice: package github.com/gocccl/gocccl/cmd/gocccl-gen/internal/testdata/importerrors/bad has errors \(fix them first\): .*bad.go:5:12: strings are not allowed in operators`
}
