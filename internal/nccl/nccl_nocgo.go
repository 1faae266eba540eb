//go:build !cgo

package nccl

import "errors"

func load(string) error {
	return errors.New("built without cgo (CGO_ENABLED=0): NCCL cannot be loaded")
}

func ncclGetVersion() (int, int) { return 0, 1 }

func ncclGetErrorString(int) string { return "" }
