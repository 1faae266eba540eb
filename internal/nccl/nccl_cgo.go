//go:build cgo

package nccl

/*
#cgo LDFLAGS: -ldl
#cgo noescape gocccl_nccl_load
#cgo nocallback gocccl_nccl_load
#cgo noescape gocccl_ncclGetVersion
#cgo nocallback gocccl_ncclGetVersion
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"errors"
	"unsafe"
)

// load opens the library at path; only a successful load changes what the
// other functions call.
func load(path string) error {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var msg [512]C.char
	if C.gocccl_nccl_load(cpath, &msg[0], C.size_t(len(msg))) != C.GOCCCL_NCCL_LOAD_OK {
		return errors.New(C.GoString(&msg[0]))
	}
	return nil
}

func ncclGetVersion() (int, int) {
	var v C.int
	r := C.gocccl_ncclGetVersion(&v)
	return int(v), int(r)
}

func ncclGetErrorString(r int) string { return C.GoString(C.gocccl_ncclGetErrorString(C.int(r))) }
