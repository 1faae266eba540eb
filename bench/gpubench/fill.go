package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"unsafe"

	"github.com/gocccl/gocccl/bench/ops"
	"github.com/gocccl/gocccl/runtime"
)

// Fills, generators, conditional transforms and batched copies, as
// bench/cub/fill.cu: fill over uint32 and uint64 (bytes written; system
// gocccl-slice: Slice.Fill, a memset or doubling copies), generate
// over uint32 (a hash of the index), transform_if over uint32 (x*3+1 where x
// is odd: half the outputs written, all counted), and two batched copies of
// about 128 MiB of bytes: batched_copy, 2^16 ranges of 1–4096 bytes (a warp
// per range), and batched_copy_large, 256 ranges of 256–768 KiB (the
// block-level kernel); sources packed in order, destinations in a random
// order, bytes read + written.
func init() {
	register(func(sizes []int) []Case {
		var cs []Case
		for _, n := range sizes {
			cs = append(cs,
				fillCase(n, "uint32", ops.FillUint32, uint32(0x01020304), false),
				fillCase(n, "uint64", ops.FillUint64, uint64(0x0102030405060708), false),
				fillCase(n, "uint32", ops.FillUint32, uint32(0x01020304), true),
				fillCase(n, "uint64", ops.FillUint64, uint64(0x0102030405060708), true),
				generateCase(n),
				transformIfCase(n),
			)
		}
		return append(cs,
			batchedCopyCase("batched_copy", 1<<16, 1, 4096),
			batchedCopyCase("batched_copy_large", 256, 256<<10, 768<<10))
	})
}

// fillCase times op writing v to n items, or with slice Slice.Fill in its
// place (system gocccl-slice): a memset for uint32, whose bytes repeat every
// 4, and log2(n) doubling copies for uint64.
func fillCase[T uint32 | uint64](n int, typ string, op *runtime.FillOp[T], v T, slice bool) Case {
	size := int(unsafe.Sizeof(v))
	c := Case{Algorithm: "fill", Type: typ, N: n, Bytes: int64(n) * int64(size), Note: "one value to every item"}
	if slice {
		c.System, c.Note = "gocccl-slice", "Slice.Fill: a memset for 4-byte items, log2(n) doubling copies for 8-byte ones"
	}
	c.Setup = func(env *Env) (*Instance, error) {
		h := &holder{}
		out, err := alloc[T](h, env, n)
		if err != nil {
			return nil, err
		}
		out = out.Range(0, n)
		run := func(int) error { return op.Run(env.Stream, out, v) }
		if slice {
			run = func(int) error { return out.Fill(env.Stream, v) }
		}
		return &Instance{
			Poison: poisoner(out),
			Run:    run,
			Check: func() error {
				got, err := out.ToHost()
				if err != nil {
					return err
				}
				for i, x := range got {
					if x != v {
						return fmt.Errorf("item %d is %#x, want %#x", i, x, v)
					}
				}
				return nil
			},
			Free: h.Free,
		}, nil
	}
	return c
}

func generateCase(n int) Case {
	return Case{
		Algorithm: "generate", Type: "uint32", N: n, Bytes: int64(n) * 4, Note: "out[i] = hash(i)",
		Setup: func(env *Env) (*Instance, error) {
			h := &holder{}
			out, err := alloc[uint32](h, env, n)
			if err != nil {
				return nil, err
			}
			out = out.Range(0, n)
			return &Instance{
				Poison: poisoner(out),
				Run:    func(int) error { return ops.GenerateUint32.Run(env.Stream, out) },
				Check: func() error {
					got, err := out.ToHost()
					if err != nil {
						return err
					}
					for i, x := range got {
						if w := ops.IndexHash(int64(i)); x != w {
							return fmt.Errorf("item %d is %#x, want %#x", i, x, w)
						}
					}
					return nil
				},
				Free: h.Free,
			}, nil
		},
	}
}

func transformIfCase(n int) Case {
	return Case{
		Algorithm: "transform_if", Type: "uint32", N: n, Bytes: int64(n) * 8, Note: "x*3+1 where x is odd, in place elsewhere untouched",
		Setup: func(env *Env) (*Instance, error) {
			host := randomItems[uint32](rng(env, "transform_if", "uint32", n), n)
			h := &holder{}
			bufs, err := rot(h, env, host, 4)
			if err != nil {
				return nil, err
			}
			out, err := alloc[uint32](h, env, n)
			if err != nil {
				return nil, err
			}
			out = out.Range(0, n)
			return &Instance{
				Poison: poisoner(out),
				Run:    func(i int) error { return ops.TransformIfUint32.Run(env.Stream, bufs[i%len(bufs)], out) },
				Check: func() error {
					got, err := out.ToHost()
					if err != nil {
						return err
					}
					for i, x := range host {
						w := poison[uint32]()
						if ops.OddUint32(x) {
							w = ops.TripleUint32(x)
						}
						if got[i] != w {
							return fmt.Errorf("item %d is %#x, want %#x", i, got[i], w)
						}
					}
					return nil
				},
				Free: h.Free,
			}, nil
		},
	}
}

// batchedCopyCase copies k ranges of lo to hi bytes: sources side by side
// in order, destinations side by side in a random order. The layout is fixed
// (so that the row's bytes are known), the bytes random per run.
func batchedCopyCase(alg string, k, lo, hi int) Case {
	r := rand.New(rand.NewPCG(uint64(k), uint64(lo)))
	sizes := make([]int64, k)
	srcOff := make([]int64, k)
	dstOff := make([]int64, k)
	var total int64
	for i := range sizes {
		sizes[i] = int64(lo + r.IntN(hi-lo+1))
		srcOff[i] = total
		total += sizes[i]
	}
	at := int64(0)
	for _, i := range r.Perm(k) {
		dstOff[i] = at
		at += sizes[i]
	}
	return Case{
		Algorithm: alg, Type: "uint8", N: k, Bytes: 2 * total,
		Note: fmt.Sprintf("%d ranges of %d-%d bytes, %d MiB, destinations scattered", k, lo, hi, total>>20),
		Setup: func(env *Env) (*Instance, error) {
			r := rng(env, alg, "uint8", k)
			src := parallelItems(r, int(total), func(r *rand.Rand) uint8 { return uint8(r.Uint32()) })
			want := make([]uint8, total)
			for i := range sizes {
				copy(want[dstOff[i]:dstOff[i]+sizes[i]], src[srcOff[i]:srcOff[i]+sizes[i]])
			}
			h := &holder{}
			bufs, err := rot(h, env, src, 1)
			if err != nil {
				return nil, err
			}
			dst, err := alloc[uint8](h, env, int(total))
			if err != nil {
				return nil, err
			}
			so, err := upload(h, env, srcOff)
			if err != nil {
				return nil, err
			}
			do, err := upload(h, env, dstOff)
			if err != nil {
				return nil, err
			}
			sz, err := upload(h, env, sizes)
			if err != nil {
				return nil, err
			}
			return &Instance{
				Poison: poisoner(dst),
				Run: func(i int) error {
					return ops.BatchedCopyUint8.Run(env.Stream, bufs[i%len(bufs)], dst, so, do, sz)
				},
				Check: func() error {
					got, err := dst.ToHost()
					if err != nil {
						return err
					}
					if !bytes.Equal(got, want) {
						return fmt.Errorf("%d bytes differ from the ranges' sources", total)
					}
					return nil
				},
				Free: h.Free,
			}, nil
		},
	}
}
