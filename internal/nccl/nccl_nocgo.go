//go:build !cgo

package nccl

import "errors"

// Built without cgo, NCCL cannot be loaded: Load fails, so nothing below is
// reached; each reports ncclSystemError all the same.

func load(string) error {
	return errors.New("built without cgo (CGO_ENABLED=0): NCCL cannot be loaded")
}

const noCgo = 2 // ncclSystemError

func ncclGetVersion() (int, int)                                               { return 0, noCgo }
func ncclGetErrorString(int) string                                            { return "" }
func ncclGetUniqueId(*UniqueID) int                                            { return noCgo }
func ncclCommInitRank(int, *UniqueID, int) (uintptr, int)                      { return 0, noCgo }
func initAll(devices []int) ([]uintptr, int)                                   { return nil, noCgo }
func ncclCommDestroy(uintptr) int                                              { return noCgo }
func ncclCommAbort(uintptr) int                                                { return noCgo }
func ncclCommInt(uintptr, int) (int, int)                                      { return 0, noCgo }
func ncclAllReduce(uint64, uint64, int, DataType, RedOp, uintptr, uintptr) int { return noCgo }
func ncclAllGather(uint64, uint64, int, DataType, uintptr, uintptr) int        { return noCgo }
func ncclBroadcast(uint64, uint64, int, DataType, int, uintptr, uintptr) int   { return noCgo }
func ncclSend(uint64, int, DataType, int, uintptr, uintptr) int                { return noCgo }
func ncclRecv(uint64, int, DataType, int, uintptr, uintptr) int                { return noCgo }
func ncclGroupStart() int                                                      { return noCgo }
func ncclGroupEnd() int                                                        { return noCgo }
