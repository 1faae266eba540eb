package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/gocccl/gocccl/internal/cuda"
)

// Copy: the bandwidth ceiling, a device-to-device cuMemcpyDtoDAsync from Go
// (bytes read + written), on 4- and 8-byte items.
func init() {
	register(func(sizes []int) []Case {
		var cs []Case
		for _, n := range sizes {
			cs = append(cs, copyCase(n, "uint32", 4), copyCase(n, "uint64", 8))
		}
		return cs
	})
}

func copyCase(n int, typ string, size int) Case {
	nb := n * size
	return Case{
		Algorithm: "copy", Type: typ, N: n, Bytes: 2 * int64(nb),
		Note: "cuMemcpyDtoDAsync through internal/cuda",
		Setup: func(env *Env) (*Instance, error) {
			host := make([]byte, nb)
			streams := newChunkStreams(rng(env, "copy", typ, n))
			parallelFor(nb/8, func(b, lo, hi int) {
				r := streams.stream(b)
				for i := lo; i < hi; i++ {
					binary.LittleEndian.PutUint64(host[8*i:], r.Uint64())
				}
			})
			var ptrs []cuda.DevicePtr
			free := func() {
				for _, p := range ptrs {
					env.Ctx.MemFree(p)
				}
			}
			for range env.Buffers(int64(nb)) + 1 { // the last is the destination
				p, err := env.Ctx.MemAlloc(nb)
				if err != nil {
					free()
					return nil, err
				}
				ptrs = append(ptrs, p)
				if err := env.Ctx.MemcpyHtoD(p, unsafe.Pointer(unsafe.SliceData(host)), nb); err != nil {
					free()
					return nil, err
				}
			}
			src, dst := ptrs[:len(ptrs)-1], ptrs[len(ptrs)-1]
			return &Instance{
				Poison: func() error { return env.Ctx.MemsetD8(dst, 0xAB, nb) },
				Run: func(i int) error {
					return env.Ctx.MemcpyDtoDAsync(dst, src[i%len(src)], nb, cuda.Stream(0))
				},
				Check: func() error {
					got := make([]byte, nb)
					if err := env.Ctx.MemcpyDtoH(unsafe.Pointer(unsafe.SliceData(got)), dst, nb); err != nil {
						return err
					}
					if !bytes.Equal(got, host) {
						return fmt.Errorf("copy of %d bytes differs from its source", nb)
					}
					return nil
				},
				Free: free,
			}, nil
		},
	}
}
