//go:build !cgo

package dlpack

import "unsafe"

func export(any, uintptr, int32, int32, dtype, int) (unsafe.Pointer, error) { return nil, ErrNoCgo }
func view(unsafe.Pointer) (tensorView, error)                               { return tensorView{}, ErrNoCgo }
func hostPointer(unsafe.Pointer, uint64) unsafe.Pointer                     { return nil }
func release(unsafe.Pointer) error                                          { return ErrNoCgo }
func setField(unsafe.Pointer, string, int64)                                {}
