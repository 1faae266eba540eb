package main

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/gocccl/gocccl/bench/ops"
	"github.com/gocccl/gocccl/runtime"
)

// Segmented scans over ops.SegmentLen-item segments, as bench/cub/segscan.cu:
// segmented_scan (inclusive, offsets from a buffer) over uint32, float32
// and uint64, segmented_scan_fixed (the same by segment size, no offsets
// read) and segmented_exclusive_scan over uint32.
func init() {
	register(func(sizes []int) []Case {
		var cs []Case
		for _, n := range sizes {
			cs = append(cs,
				segScanCase(n, "segmented_scan", "uint32", ops.SegmentedInclusiveScanUint32, nil, false),
				segScanCase(n, "segmented_scan_fixed", "uint32", ops.SegmentedInclusiveScanUint32, nil, true),
				segScanCase(n, "segmented_exclusive_scan", "uint32", nil, ops.SegmentedExclusiveScanUint32, false),
				segScanCase(n, "segmented_scan", "float32", ops.SegmentedInclusiveScanFloat32, nil, false),
				segScanCase(n, "segmented_scan_fixed", "float32", ops.SegmentedInclusiveScanFloat32, nil, true),
				segScanCase(n, "segmented_scan", "uint64", ops.SegmentedInclusiveScanUint64, nil, false),
			)
		}
		return cs
	})
}

// segScanCase times an inclusive (inc) or exclusive (exc, init 0) scan of
// every segment, checked against a loop (floats within a relative 1e-5 of
// a float64 sum).
func segScanCase[T wide](n int, alg, typ string, inc *runtime.SegmentedInclusiveScanOp[T], exc *runtime.SegmentedExclusiveScanOp[T], fixed bool) Case {
	size := int(unsafe.Sizeof(*new(T)))
	segs := (n + ops.SegmentLen - 1) / ops.SegmentLen
	bytes := 2 * int64(n) * int64(size)
	note := fmt.Sprintf("sum over %d-item segments", ops.SegmentLen)
	if fixed {
		note += ", by size"
	} else {
		bytes += int64(segs+1) * 8
		note += ", offsets buffer"
	}
	return Case{
		Algorithm: alg, Type: typ, N: n, Bytes: bytes, Note: note,
		Setup: func(env *Env) (*Instance, error) {
			host := randomItems[T](rng(env, alg, typ, n), n)
			off := make([]int64, segs+1)
			for i := range off {
				off[i] = min(int64(n), int64(i)*ops.SegmentLen)
			}
			h := &holder{}
			bufs, err := rot(h, env, host, size)
			if err != nil {
				return nil, err
			}
			doff, err := upload(h, env, off)
			if err != nil {
				return nil, err
			}
			out, err := alloc[T](h, env, n)
			if err != nil {
				return nil, err
			}
			begin, end := doff.Range(0, segs), doff.Range(1, segs+1)
			run := func(i int) error {
				in := bufs[i%len(bufs)]
				switch {
				case exc != nil:
					return exc.Run(env.Stream, in, begin, end, out, 0)
				case fixed:
					return inc.RunFixed(env.Stream, in, ops.SegmentLen, out)
				}
				return inc.Run(env.Stream, in, begin, end, out)
			}
			return &Instance{
				Poison: poisoner(out),
				Run:    run,
				Check: func() error {
					got, err := out.ToHost()
					if err != nil {
						return err
					}
					return checkSegmentedPrefix(host, got, off, exc == nil)
				},
				Free: h.Free,
			}, nil
		},
	}
}

// checkSegmentedPrefix compares got with the prefix sums of every segment
// [off[s], off[s+1]) of in: exact for integers (wrapping), within a relative
// 1e-5 of a float64 sum for floats.
func checkSegmentedPrefix[T wide](in, got []T, off []int64, inclusive bool) error {
	for s := 0; s+1 < len(off); s++ {
		var acc T
		var wide, mag float64
		for i := off[s]; i < off[s+1]; i++ {
			if inclusive {
				acc += in[i]
				wide += float64(in[i])
				mag += math.Abs(float64(in[i]))
			}
			want := acc
			if isFloat[T]() {
				if !closeTo(float64(got[i]), wide, mag) {
					return fmt.Errorf("segment %d, item %d: %v, want %v", s, i, got[i], wide)
				}
			} else if got[i] != want {
				return fmt.Errorf("segment %d, item %d: %v, want %v", s, i, got[i], want)
			}
			if !inclusive {
				acc += in[i]
				wide += float64(in[i])
				mag += math.Abs(float64(in[i]))
			}
		}
	}
	return nil
}
