package main

import (
	"cmp"
	"fmt"
	"unsafe"

	"github.com/gocccl/gocccl/bench/ops"
	"github.com/gocccl/gocccl/runtime"
)

// Searches and extrema, as bench/cub/find.cu: find_if over uint32 with the
// one match at the last item (every item read) and find_if_mid with it at
// n/2 (what the early exit saves; CUB's reduction reads everything
// either way), argmin and argmax over uint32 and float32, argmin over
// float64.
func init() {
	register(func(sizes []int) []Case {
		var cs []Case
		for _, n := range sizes {
			cs = append(cs,
				findCase(n, "find_if", func(n int) int { return n - 1 }),
				findCase(n, "find_if_mid", func(n int) int { return n / 2 }),
				argCase(n, "argmin", "uint32", ops.ArgMinUint32, false),
				argCase(n, "argmax", "uint32", ops.ArgMaxUint32, true),
				argCase(n, "argmin", "float32", ops.ArgMinFloat32, false),
				argCase(n, "argmax", "float32", ops.ArgMaxFloat32, true),
				argCase(n, "argmin", "float64", ops.ArgMinFloat64, false),
			)
		}
		return cs
	})
}

// findCase times FindIfUint32 over random uint32s holding ops.Needle only
// at at(n).
func findCase(n int, alg string, at func(n int) int) Case {
	return Case{
		Algorithm: alg, Type: "uint32", N: n, Bytes: int64(n) * 4, Note: "x == needle, one match",
		Setup: func(env *Env) (*Instance, error) {
			host := randomItems[uint32](rng(env, alg, "uint32", n), n)
			for i, x := range host {
				if ops.IsNeedle(x) {
					host[i] = 0
				}
			}
			want := int64(n)
			if n > 0 {
				want = int64(at(n))
				host[want] = ops.Needle
			}
			h := &holder{}
			bufs, err := rot(h, env, host, 4)
			if err != nil {
				return nil, err
			}
			out, err := alloc[int64](h, env, 1)
			if err != nil {
				return nil, err
			}
			return &Instance{
				Poison: poisoner(out),
				Run:    func(i int) error { return ops.FindIfUint32.Run(env.Stream, bufs[i%len(bufs)], out) },
				Check: func() error {
					got, err := out.ToHost()
					if err != nil {
						return err
					}
					if got[0] != want {
						return fmt.Errorf("found %d, want %d", got[0], want)
					}
					return nil
				},
				Free: h.Free,
			}, nil
		},
	}
}

// argCase times an ArgMin or ArgMax over random items: the value and its
// int64 index, checked against a loop (ties to the lowest index).
func argCase[T interface {
	wide
	cmp.Ordered
}](n int, alg, typ string, op *runtime.ArgReduceOp[T], isMax bool) Case {
	size := int(unsafe.Sizeof(*new(T)))
	return Case{
		Algorithm: alg, Type: typ, N: n, Bytes: int64(n)*int64(size) + int64(size) + 8, Note: "value and int64 index",
		Setup: func(env *Env) (*Instance, error) {
			host := randomItems[T](rng(env, alg, typ, n), n)
			wi := int64(-1)
			for i, x := range host {
				if wi < 0 || !isMax && x < host[wi] || isMax && x > host[wi] {
					wi = int64(i)
				}
			}
			h := &holder{}
			bufs, err := rot(h, env, host, size)
			if err != nil {
				return nil, err
			}
			v, err := alloc[T](h, env, 1)
			if err != nil {
				return nil, err
			}
			idx, err := alloc[int64](h, env, 1)
			if err != nil {
				return nil, err
			}
			return &Instance{
				Poison: poisonAll(poisoner(v), poisoner(idx)),
				Run:    func(i int) error { return op.Run(env.Stream, bufs[i%len(bufs)], v, idx) },
				Check: func() error {
					gi, err := idx.ToHost()
					if err != nil {
						return err
					}
					gv, err := v.ToHost()
					if err != nil {
						return err
					}
					if gi[0] != wi || wi >= 0 && gv[0] != host[wi] {
						return fmt.Errorf("%s: (%v, %d), want index %d", alg, gv[0], gi[0], wi)
					}
					return nil
				},
				Free: h.Free,
			}, nil
		},
	}
}
