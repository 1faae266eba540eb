package main

import (
	"fmt"
	"math"
	"strconv"
	"unsafe"

	"github.com/gocccl/gocccl/bench/ops"
	"github.com/gocccl/gocccl/runtime"
)

// Segmented and fused reductions, as bench/cub/segmented.cu:
// segmented_reduce over 1024-item segments (max over uint32, sum over
// float32; gocccl-max: uint32 given MaxSegmentSize 1024), segmented_reduce_4,
// _16 and _128 (uint32 max over segments of that many items, without and
// with the promise: gocccl, gocccl-max), reduce_by_key (uint32 keys in runs of 7, sum of uint32, float32,
// uint64 or float64 values), adjacent_difference (a - b, over the same four
// types) and transform_reduce (uint32: sum of x & 255; float32: sum of
// squares in float64).
func init() {
	register(func(sizes []int) []Case {
		var cs []Case
		for _, n := range sizes {
			cs = append(cs,
				segReduceCase(n, "uint32", ops.SegmentedMaxUint32, ops.MaxUint32, "max"),
				segReduceIterCase(n),
				segReduceFixedCase(n),
				segReduceCase(n, "float32", ops.SegmentedSumFloat32, ops.AddFloat32, "sum"),
				segReduceMaxCase(n, 1024),
				reduceByKeyCase(n, "uint32", ops.ReduceByKeyUint32),
				reduceByKeyCase(n, "float32", ops.ReduceByKeyFloat32),
				fastmath(reduceByKeyCase(n, "float32", ops.ReduceByKeyFloat32Fast)),
				reduceByKeyCase(n, "uint64", ops.ReduceByKeyUint64),
				reduceByKeyCase(n, "float64", ops.ReduceByKeyFloat64),
				adjDiffCase(n, "uint32", ops.AdjacentDifferenceUint32),
				adjDiffCase(n, "float32", ops.AdjacentDifferenceFloat32),
				adjDiffCase(n, "uint64", ops.AdjacentDifferenceUint64),
				adjDiffCase(n, "float64", ops.AdjacentDifferenceFloat64),
				transformReduceCase(n, "uint32", ops.TransformReduceUint32, ops.Low8Uint32, "sum of x & 255"),
				transformReduceCase(n, "float32", ops.TransformReduceFloat32, ops.SquareFloat32, "sum of squares into float64"),
			)
		}
		// Segments of the MaxSegmentSize hint's kernels, with and without it.
		for _, n := range sizes {
			for _, seg := range []int{4, 16, 128} {
				c := segReduceBy(n, "uint32", ops.SegmentedMaxUint32, ops.MaxUint32, "max", nil, false, seg, 0)
				c.Algorithm = "segmented_reduce_" + strconv.Itoa(seg)
				m := segReduceMaxCase(n, seg)
				m.Algorithm = c.Algorithm
				cs = append(cs, c, m)
			}
		}
		return cs
	})
}

// segReduceMaxCase is the uint32 segmented max over segments of seg items
// with the promise MaxSegmentSize = seg (RunWith): system gocccl-max.
func segReduceMaxCase(n, seg int) Case {
	c := segReduceBy(n, "uint32", ops.SegmentedMaxUint32, ops.MaxUint32, "max", nil, false, seg, seg)
	c.System, c.Note = "gocccl-max", c.Note+", given MaxSegmentSize"
	return c
}

func agree[T wide](got, want T, mag float64) bool {
	if isFloat[T]() {
		return closeTo(float64(got), float64(want), mag)
	}
	return got == want
}

// segReduceIterCase is the uint32 segmented max with its offsets read
// through ops.SegmentStarts (a Transform of a Counting iterator) instead of
// a buffer: system gocccl-iter, beside gocccl's and CUB's offsets buffers.
func segReduceIterCase(n int) Case {
	c := segReduceOver(n, "uint32", ops.SegmentedMaxUint32Iter, ops.MaxUint32, "max", func(segs int) (runtime.Input[int64], runtime.Input[int64]) {
		return ops.SegmentStarts.Bind(ops.SegmentIndex.With(0)).Take(segs), ops.SegmentStarts.Bind(ops.SegmentIndex.With(1))
	})
	c.System, c.Note = "gocccl-iter", c.Note+", offsets from iterators"
	if n%ops.SegmentLen != 0 {
		c.Setup = func(*Env) (*Instance, error) {
			return nil, fmt.Errorf("%w: n = %d is not a multiple of %d", ErrSkip, n, ops.SegmentLen)
		}
	}
	return c
}

// segReduceFixedCase is the uint32 segmented max by segment size
// (RunFixed, no offsets read): system gocccl-fixed.
func segReduceFixedCase(n int) Case {
	c := segReduceBy(n, "uint32", ops.SegmentedMaxUint32, ops.MaxUint32, "max", nil, true, 1024, 0)
	c.System, c.Note = "gocccl-fixed", c.Note+", by size (RunFixed): no offsets"
	c.Bytes = int64(n)*4 + int64(max(1, n/1024))*4
	if n%1024 != 0 {
		c.Setup = func(*Env) (*Instance, error) {
			return nil, fmt.Errorf("%w: n = %d is not a multiple of 1024", ErrSkip, n)
		}
	}
	return c
}

func segReduceCase[T num](n int, typ string, op *runtime.SegmentedReduceOp[T], f func(T, T) T, name string) Case {
	return segReduceOver(n, typ, op, f, name, nil)
}

// segReduceOver is a segmented reduction over 1024-item segments whose
// offsets come from a buffer, or from offsets(segs) when it is not nil.
func segReduceOver[T num](n int, typ string, op *runtime.SegmentedReduceOp[T], f func(T, T) T, name string,
	offsets func(segs int) (begin, end runtime.Input[int64])) Case {
	return segReduceBy(n, typ, op, f, name, offsets, false, 1024, 0)
}

// segReduceBy is segReduceOver over segments of seg items, or with fixed
// RunFixed over the same segments, by their size, or with hint > 0 RunWith
// given MaxSegmentSize = hint.
func segReduceBy[T num](n int, typ string, op *runtime.SegmentedReduceOp[T], f func(T, T) T, name string,
	offsets func(segs int) (begin, end runtime.Input[int64]), fixed bool, seg, hint int) Case {
	segs := max(1, (n+seg-1)/seg)
	return Case{
		Algorithm: "segmented_reduce", Type: typ, N: n, Bytes: int64(n)*4 + int64(segs)*(16+4),
		Note: name + " over " + strconv.Itoa(seg) + "-item segments",
		Setup: func(env *Env) (*Instance, error) {
			host := randomItems[T](rng(env, "segmented_reduce", typ, n), n)
			off := make([]int64, segs+1)
			for i := range off {
				off[i] = min(int64(n), int64(i)*int64(seg))
			}
			want, mag := make([]T, segs), make([]float64, segs)
			parallelForBy(segs, parBlock/seg, func(_, lo, hi int) {
				for s := lo; s < hi; s++ {
					var acc T
					for _, x := range host[off[s]:off[s+1]] {
						acc = f(acc, x)
						mag[s] += math.Abs(float64(x))
					}
					want[s] = acc
				}
			})
			h := &holder{}
			bufs, err := rot(h, env, host, 4)
			if err != nil {
				return nil, err
			}
			doff, err := upload(h, env, off)
			if err != nil {
				return nil, err
			}
			out, err := alloc[T](h, env, segs)
			if err != nil {
				return nil, err
			}
			var begin, end runtime.Input[int64] = doff.Range(0, segs), doff.Range(1, segs+1)
			if offsets != nil {
				begin, end = offsets(segs)
			}
			return &Instance{
				Poison: poisoner(out),
				Run: func(i int) error {
					if fixed {
						return op.RunFixed(env.Stream, bufs[i%len(bufs)], seg, out, 0)
					}
					if hint > 0 {
						return op.RunWith(env.Stream, bufs[i%len(bufs)], begin, end, out, 0, runtime.SegmentedReduceOptions{MaxSegmentSize: hint})
					}
					return op.Run(env.Stream, bufs[i%len(bufs)], begin, end, out, 0)
				},
				Check: func() error {
					got, err := out.ToHost()
					if err != nil {
						return err
					}
					for s := range segs {
						if !agree(got[s], want[s], mag[s]) {
							return fmt.Errorf("segment %d: %v, want %v", s, got[s], want[s])
						}
					}
					return nil
				},
				Free: h.Free,
			}, nil
		},
	}
}

// fastmath marks c as the run of a //gocccl:op fastmath operator: the cost
// of Go's NaN payloads is the difference to the plain row.
func fastmath(c Case) Case {
	c.System, c.Note = "gocccl-fastmath", c.Note+"; //gocccl:op fastmath: the GPU's NaNs"
	return c
}

func reduceByKeyCase[V wide](n int, typ string, op *runtime.ReduceByKeyOp[uint32, V]) Case {
	runs := (n + 6) / 7
	pair := 4 + int(unsafe.Sizeof(*new(V))) // a key and a value
	return Case{
		Algorithm: "reduce_by_key", Type: typ, N: n, Bytes: int64(n)*int64(pair) + int64(runs)*int64(pair) + 8,
		Note: "uint32 keys in runs of 7, sum",
		Setup: func(env *Env) (*Instance, error) {
			host := randomItems[V](rng(env, "reduce_by_key", typ, n), n)
			keys := make([]uint32, n)
			want, mag := make([]V, runs), make([]float64, runs)
			parallelForBy(runs, parBlock/7, func(_, lo, hi int) { // whole runs of 7 per block
				for i := 7 * lo; i < min(n, 7*hi); i++ {
					keys[i] = uint32(i / 7)
					want[i/7] += host[i]
					mag[i/7] += math.Abs(float64(host[i]))
				}
			})
			h := &holder{}
			kb, err := rot(h, env, keys, pair)
			if err != nil {
				return nil, err
			}
			vb, err := rot(h, env, host, pair)
			if err != nil {
				return nil, err
			}
			uniq, err := alloc[uint32](h, env, n)
			if err != nil {
				return nil, err
			}
			agg, err := alloc[V](h, env, n)
			if err != nil {
				return nil, err
			}
			num, err := alloc[int64](h, env, 1)
			if err != nil {
				return nil, err
			}
			return &Instance{
				Poison: poisonAll(poisoner(uniq), poisoner(agg), poisoner(num)),
				Run: func(i int) error {
					return op.Run(env.Stream, kb[i%len(kb)], vb[i%len(vb)], uniq, agg, num)
				},
				Check: func() error {
					c, err := num.ToHost()
					if err != nil {
						return err
					}
					if c[0] != int64(runs) {
						return fmt.Errorf("%d runs, want %d", c[0], runs)
					}
					u, err := uniq.ToHost()
					if err != nil {
						return err
					}
					a, err := agg.ToHost()
					if err != nil {
						return err
					}
					for r := range runs {
						if u[r] != uint32(r) || !agree(a[r], want[r], mag[r]) {
							return fmt.Errorf("run %d: key %d, sum %v, want %d, %v", r, u[r], a[r], r, want[r])
						}
					}
					return nil
				},
				Free: h.Free,
			}, nil
		},
	}
}

func adjDiffCase[T wide](n int, typ string, op *runtime.AdjacentDifferenceOp[T]) Case {
	size := int(unsafe.Sizeof(*new(T)))
	return Case{
		Algorithm: "adjacent_difference", Type: typ, N: n, Bytes: 2 * int64(n) * int64(size), Note: "a - b",
		Setup: func(env *Env) (*Instance, error) {
			host := randomItems[T](rng(env, "adjacent_difference", typ, n), n)
			want := make([]T, n)
			parallelFor(n, func(_, lo, hi int) {
				for i := lo; i < hi; i++ {
					if i == 0 {
						want[i] = host[0]
					} else {
						want[i] = host[i] - host[i-1]
					}
				}
			})
			h := &holder{}
			bufs, err := rot(h, env, host, size)
			if err != nil {
				return nil, err
			}
			out, err := alloc[T](h, env, n)
			if err != nil {
				return nil, err
			}
			return &Instance{
				Poison: poisoner(out),
				Run:    func(i int) error { return op.Run(env.Stream, bufs[i%len(bufs)], out) },
				Check: func() error {
					got, err := out.ToHost()
					if err != nil {
						return err
					}
					return sameItems("differences", got, want)
				},
				Free: h.Free,
			}, nil
		},
	}
}

func transformReduceCase[In num, T uint32 | float64](n int, typ string, op *runtime.TransformReduceOp[In, T], f func(In) T, note string) Case {
	return Case{
		Algorithm: "transform_reduce", Type: typ, N: n, Bytes: int64(n)*4 + 8, Note: note,
		Setup: func(env *Env) (*Instance, error) {
			host := randomItems[In](rng(env, "transform_reduce", typ, n), n)
			var want T
			var mag float64
			for _, x := range host {
				want += f(x)
				mag += math.Abs(float64(f(x)))
			}
			h := &holder{}
			bufs, err := rot(h, env, host, 4)
			if err != nil {
				return nil, err
			}
			out, err := alloc[T](h, env, 1)
			if err != nil {
				return nil, err
			}
			return &Instance{
				Poison: poisoner(out),
				Run:    func(i int) error { return op.Run(env.Stream, bufs[i%len(bufs)], out, 0) },
				Check: func() error {
					got, err := out.ToHost()
					if err != nil {
						return err
					}
					if !agree(got[0], want, mag) {
						return fmt.Errorf("got %v, want %v", got[0], want)
					}
					return nil
				},
				Free: h.Free,
			}, nil
		},
	}
}
