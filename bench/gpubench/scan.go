package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"unsafe"

	"github.com/gocccl/gocccl/bench/ops"
	"github.com/gocccl/gocccl/runtime"
)

// Scans: inclusive (scan) and exclusive (exclusive_scan) prefix sums over
// uint32 and uint64 (wrapping, exact), float32 and float64, and the same by
// key over values of those four types (scan_by_key, exclusive_scan_by_key:
// uint32 keys in runs of mean length 7), as cub::DeviceScan in
// bench/cub/scan.cu.
func init() {
	register(func(sizes []int) []Case {
		var cs []Case
		for _, n := range sizes {
			cs = append(cs,
				scanCase(n, "uint32", true, ops.InclusiveScanUint32.Run, nil),
				scanCase(n, "uint32", false, nil, ops.ExclusiveScanUint32.Run),
				scanCase(n, "float32", true, ops.InclusiveScanFloat32.Run, nil),
				scanCase(n, "float32", false, nil, ops.ExclusiveScanFloat32.Run),
				scanCase(n, "uint64", true, ops.InclusiveScanUint64.Run, nil),
				scanCase(n, "uint64", false, nil, ops.ExclusiveScanUint64.Run),
				scanCase(n, "float64", true, ops.InclusiveScanFloat64.Run, nil),
				scanCase(n, "float64", false, nil, ops.ExclusiveScanFloat64.Run),
				scanByKeyCase(n, "uint32", true, ops.InclusiveScanByKeyUint32.Run, nil),
				scanByKeyCase(n, "uint32", false, nil, ops.ExclusiveScanByKeyUint32.Run),
				scanByKeyCase(n, "float32", true, ops.InclusiveScanByKeyFloat32.Run, nil),
				scanByKeyCase(n, "float32", false, nil, ops.ExclusiveScanByKeyFloat32.Run),
				scanByKeyCase(n, "uint64", true, ops.InclusiveScanByKeyUint64.Run, nil),
				scanByKeyCase(n, "uint64", false, nil, ops.ExclusiveScanByKeyUint64.Run),
				scanByKeyCase(n, "float64", true, ops.InclusiveScanByKeyFloat64.Run, nil),
				scanByKeyCase(n, "float64", false, nil, ops.ExclusiveScanByKeyFloat64.Run),
			)
		}
		return cs
	})
}

type scanRun[T any] func(*runtime.Stream, runtime.Input[T], runtime.Output[T]) error
type exScanRun[T any] func(*runtime.Stream, runtime.Input[T], runtime.Output[T], T) error

func scanCase[T wide](n int, typ string, inclusive bool, incl scanRun[T], excl exScanRun[T]) Case {
	alg := "scan"
	if !inclusive {
		alg = "exclusive_scan"
	}
	size := int(unsafe.Sizeof(*new(T)))
	return Case{
		Algorithm: alg, Type: typ, N: n, Bytes: 2 * int64(n) * int64(size),
		Setup: func(env *Env) (*Instance, error) {
			host := randomItems[T](rng(env, alg, typ, n), n)
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
				Run: func(i int) error {
					if inclusive {
						return incl(env.Stream, bufs[i%len(bufs)], out)
					}
					return excl(env.Stream, bufs[i%len(bufs)], out, 0)
				},
				Check: func() error {
					got, err := out.ToHost()
					if err != nil {
						return err
					}
					return checkPrefix(host, got, inclusive, nil)
				},
				Free: h.Free,
			}, nil
		},
	}
}

type byKeyRun[V any] func(*runtime.Stream, *runtime.Slice[uint32], *runtime.Slice[V], *runtime.Slice[V]) error
type exByKeyRun[V any] func(*runtime.Stream, *runtime.Slice[uint32], *runtime.Slice[V], *runtime.Slice[V], V) error

func scanByKeyCase[V wide](n int, typ string, inclusive bool, incl byKeyRun[V], excl exByKeyRun[V]) Case {
	alg := "scan_by_key"
	if !inclusive {
		alg = "exclusive_scan_by_key"
	}
	size := int(unsafe.Sizeof(*new(V)))
	return Case{
		Algorithm: alg, Type: typ, N: n, Bytes: int64(n) * int64(4+2*size),
		Note: "uint32 keys in runs of mean length 7",
		Setup: func(env *Env) (*Instance, error) {
			r := rng(env, alg, typ, n)
			// A new key before an item with probability 1/7: the draws in
			// parallel (parallelItems), their running count one by one.
			starts := parallelItems(r, n, func(r *rand.Rand) bool { return r.IntN(7) == 0 })
			keys := make([]uint32, n)
			key := uint32(0)
			for i, s := range starts {
				if s {
					key++
				}
				keys[i] = key
			}
			host := randomItems[V](r, n)
			h := &holder{}
			// Both rotations count a key and a value per item.
			kbufs, err := rot(h, env, keys, 4+size)
			if err != nil {
				return nil, err
			}
			vbufs, err := rot(h, env, host, 4+size)
			if err != nil {
				return nil, err
			}
			out, err := alloc[V](h, env, n)
			if err != nil {
				return nil, err
			}
			return &Instance{
				Poison: poisoner(out),
				Run: func(i int) error {
					k, v := kbufs[i%len(kbufs)], vbufs[i%len(vbufs)]
					if inclusive {
						return incl(env.Stream, k, v, out)
					}
					return excl(env.Stream, k, v, out, 0)
				},
				Check: func() error {
					got, err := out.ToHost()
					if err != nil {
						return err
					}
					return checkPrefix(host, got, inclusive, keys)
				},
				Free: h.Free,
			}, nil
		},
	}
}

// checkPrefix checks an inclusive or exclusive prefix sum of in, restarting
// at every key change when keys is not nil. Fixed blocks are checked in
// parallel: a first pass sums each block from its last restart (or its
// start), a serial pass over the blocks gives each its incoming sums, and a
// second pass checks every block from them (float sums are float64 sums of
// the same items, associated by blocks, far inside closeTo's tolerance).
func checkPrefix[T wide](in, got []T, inclusive bool, keys []uint32) error {
	restart := func(i int) bool { return keys != nil && (i == 0 || keys[i-1] != keys[i]) }
	type sums struct {
		acc        T
		exact, mag float64
		restarted  bool // a restart in the block: the sums are from its last one
	}
	tails := parallelBlocks(len(in), func(lo, hi int) sums {
		var s sums
		for i := lo; i < hi; i++ {
			if restart(i) {
				s = sums{restarted: true}
			}
			s.acc += in[i]
			s.exact += float64(in[i])
			s.mag += math.Abs(float64(in[i]))
		}
		return s
	})
	carry := make([]sums, len(tails))
	for b := 1; b < len(tails); b++ {
		t := tails[b-1]
		if t.restarted {
			carry[b] = t
		} else {
			carry[b] = sums{acc: carry[b-1].acc + t.acc, exact: carry[b-1].exact + t.exact, mag: carry[b-1].mag + t.mag}
		}
	}
	float := isFloat[T]()
	for _, err := range parallelBlocks(len(in), func(lo, hi int) error {
		c := carry[lo/parBlock]
		acc, exact, mag := c.acc, c.exact, c.mag
		for i := lo; i < hi; i++ {
			x := in[i]
			if restart(i) {
				acc, exact, mag = 0, 0, 0
			}
			if inclusive {
				acc += x
				exact += float64(x)
				mag += math.Abs(float64(x))
			}
			if float && !closeTo(float64(got[i]), exact, mag) || !float && got[i] != acc {
				return fmt.Errorf("element %d is %v, want %v (exact %g)", i, got[i], acc, exact)
			}
			if !inclusive {
				acc += x
				exact += float64(x)
				mag += math.Abs(float64(x))
			}
		}
		return nil
	}) {
		if err != nil {
			return err
		}
	}
	return nil
}
