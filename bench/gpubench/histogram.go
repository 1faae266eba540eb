package main

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sort"
	"unsafe"

	"github.com/gocccl/gocccl/bench/ops"
	"github.com/gocccl/gocccl/runtime"
)

// Histograms (256 bins; uint32 over [0, 2^32 - 1), uint64 over
// [0, 2^64 - 1), floats over [0, 1)), vectorized lower_bound (n values in
// 2^20 sorted items, int64 results) and merge (n/2 + n/2 sorted keys), each
// over uint32, float32, uint64 and float64, as bench/cub/histogram.cu.
func init() {
	register(func(sizes []int) []Case {
		var cs []Case
		for _, n := range sizes {
			cs = append(cs,
				histogramCase(n, "uint32", true, ops.HistogramEvenUint32, ops.HistogramRangeUint32, 0, 0xFFFFFFFF),
				histogramCase(n, "uint32", false, ops.HistogramEvenUint32, ops.HistogramRangeUint32, 0, 0xFFFFFFFF),
				histogramCase(n, "float32", true, ops.HistogramEvenFloat32, ops.HistogramRangeFloat32, 0, 1),
				histogramCase(n, "float32", false, ops.HistogramEvenFloat32, ops.HistogramRangeFloat32, 0, 1),
				histogramCase(n, "uint64", true, ops.HistogramEvenUint64, ops.HistogramRangeUint64, 0, math.MaxUint64),
				histogramCase(n, "uint64", false, ops.HistogramEvenUint64, ops.HistogramRangeUint64, 0, math.MaxUint64),
				histogramCase(n, "float64", true, ops.HistogramEvenFloat64, ops.HistogramRangeFloat64, 0, 1),
				histogramCase(n, "float64", false, ops.HistogramEvenFloat64, ops.HistogramRangeFloat64, 0, 1),
				multiHistogramCase(n),
				lowerBoundCase(n, "uint32", ops.LowerBoundUint32),
				lowerBoundCase(n, "float32", ops.LowerBoundFloat32),
				lowerBoundCase(n, "uint64", ops.LowerBoundUint64),
				lowerBoundCase(n, "float64", ops.LowerBoundFloat64),
				sortedSearchCase(n, "uint32", ops.LowerBoundUint32, true),
				sortedSearchCase(n, "uint32", ops.LowerBoundUint32, false),
				sortedSearchCase(n, "float64", ops.LowerBoundFloat64, true),
				sortedSearchCase(n, "float64", ops.LowerBoundFloat64, false),
				mergeCase(n, "uint32", ops.MergeUint32),
				mergeCase(n, "float32", ops.MergeFloat32),
				mergeCase(n, "uint64", ops.MergeUint64),
				mergeCase(n, "float64", ops.MergeFloat64),
			)
		}
		return cs
	})
}

const histBins = 256

// evenBin is runtime.HistogramEven's bin of x, or -1.
func evenBin[T wide](x, lo, up T) int {
	if !(x >= lo && x < up) {
		return -1
	}
	if isFloat[T]() {
		scale := T(histBins) / (up - lo)
		b := int((x - lo) * scale)
		return min(b, histBins-1)
	}
	return int(mulDiv(uint64(x-lo), histBins, uint64(up-lo)))
}

// mulDiv is a * b / c in 128 bits, for a < c (the quotient fits 64 bits).
func mulDiv(a, b, c uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	q, _ := bits.Div64(hi, lo, c)
	return q
}

func histogramCase[T wide](n int, typ string, even bool, evenOp *runtime.HistogramEvenOp[T], rangeOp *runtime.HistogramRangeOp[T], lo, up T) Case {
	alg := "histogram_even"
	if !even {
		alg = "histogram_range"
	}
	size := int(unsafe.Sizeof(*new(T)))
	return Case{
		Algorithm: alg, Type: typ, N: n, Bytes: int64(n)*int64(size) + histBins*4, Note: "256 bins",
		Setup: func(env *Env) (*Instance, error) {
			host := randomItems[T](rng(env, alg, typ, n), n)
			levels := make([]T, histBins+1)
			for i := range levels {
				if isFloat[T]() {
					levels[i] = T(float64(i) / histBins)
				} else {
					levels[i] = T(mulDiv(uint64(up-lo), uint64(i), histBins)) + lo
				}
			}
			// The CPU bins: counts of fixed blocks in parallel, then added.
			want := make([]int32, histBins)
			for _, part := range parallelBlocks(n, func(from, to int) []int32 {
				part := make([]int32, histBins)
				for _, x := range host[from:to] {
					if even {
						if b := evenBin(x, lo, up); b >= 0 {
							part[b]++
						}
					} else if x >= levels[0] && x < levels[histBins] {
						part[sort.Search(len(levels), func(i int) bool { return levels[i] > x })-1]++
					}
				}
				return part
			}) {
				for b, c := range part {
					want[b] += c
				}
			}
			h := &holder{}
			bufs, err := rot(h, env, host, size)
			if err != nil {
				return nil, err
			}
			hist, err := alloc[int32](h, env, histBins)
			if err != nil {
				return nil, err
			}
			dl, err := upload(h, env, levels)
			if err != nil {
				return nil, err
			}
			return &Instance{
				Poison: poisoner(hist),
				Run: func(i int) error {
					if even {
						return evenOp.Run(env.Stream, bufs[i%len(bufs)], hist, histBins, lo, up)
					}
					return rangeOp.Run(env.Stream, bufs[i%len(bufs)], hist, dl)
				},
				Check: func() error {
					got, err := hist.ToHost()
					if err != nil {
						return err
					}
					return sameItems("bins", got, want)
				},
				Free: h.Free,
			}, nil
		},
	}
}

// multiHistogramCase is MultiHistogramEven over n uint8 samples, RGBA
// pixels (n/4 of them), 256 bins over [0, 255) for each of the first three
// channels: cub::DeviceHistogram::MultiHistogramEven<4, 3>.
func multiHistogramCase(n int) Case {
	const alg, channels, active = "multi_histogram_even", 4, 3
	n -= n % channels
	return Case{
		Algorithm: alg, Type: "uint8", N: n, Bytes: int64(n) + active*histBins*4, Note: "RGBA, 256 bins x 3 channels",
		Setup: func(env *Env) (*Instance, error) {
			r := rng(env, alg, "uint8", n)
			host := parallelItems(r, n, func(r *rand.Rand) uint8 { return uint8(r.Uint32()) })
			bins := []int{histBins, histBins, histBins}
			lower, upper := []uint8{0, 0, 0}, []uint8{255, 255, 255}
			want := make([][]int32, active)
			for c := range want {
				want[c] = make([]int32, histBins)
			}
			for p := 0; p < n; p += channels {
				for c := range active {
					if x := host[p+c]; x < 255 {
						want[c][int(x)*histBins/255]++
					}
				}
			}
			h := &holder{}
			bufs, err := rot(h, env, host, 1)
			if err != nil {
				return nil, err
			}
			hists := make([]*runtime.Slice[int32], active)
			poisons := make([]func() error, active)
			for c := range hists {
				if hists[c], err = alloc[int32](h, env, histBins); err != nil {
					return nil, err
				}
				poisons[c] = poisoner(hists[c])
			}
			return &Instance{
				Poison: poisonAll(poisons...),
				Run: func(i int) error {
					return ops.MultiHistogramEvenU8.Run(env.Stream, bufs[i%len(bufs)], channels, hists, bins, lower, upper)
				},
				Check: func() error {
					for c, hist := range hists {
						got, err := hist.ToHost()
						if err != nil {
							return err
						}
						if err := sameItems(fmt.Sprintf("channel %d bins", c), got, want[c]); err != nil {
							return err
						}
					}
					return nil
				},
				Free: h.Free,
			}, nil
		},
	}
}

func lowerBoundCase[T wide](n int, typ string, op *runtime.SearchOp[T]) Case {
	const nd = 1 << 20
	size := int(unsafe.Sizeof(*new(T)))
	return Case{
		Algorithm: "lower_bound", Type: typ, N: n, Bytes: int64(n) * int64(size+8),
		Note: "n values in 2^20 sorted items, int64 results",
		Setup: func(env *Env) (*Instance, error) {
			r := rng(env, "lower_bound", typ, n)
			data := randomItems[T](r, nd)
			parallelSort(data)
			values := randomItems[T](r, n)
			h := &holder{}
			dd, err := upload(h, env, data)
			if err != nil {
				return nil, err
			}
			bufs, err := rot(h, env, values, size)
			if err != nil {
				return nil, err
			}
			out, err := alloc[int64](h, env, n)
			if err != nil {
				return nil, err
			}
			return &Instance{
				Poison: poisoner(out),
				Run:    func(i int) error { return op.Run(env.Stream, dd, bufs[i%len(bufs)], out) },
				Check: func() error {
					got, err := out.ToHost()
					if err != nil {
						return err
					}
					step := 1
					if n > 1<<22 {
						step = 61 // a sample
					}
					for i := 0; i < n; i += step {
						want, _ := slices.BinarySearch(data, values[i])
						if got[i] != int64(want) {
							return fmt.Errorf("result %d is %d, want %d", i, got[i], want)
						}
					}
					return nil
				},
				Free: h.Free,
			}, nil
		},
	}
}

func mergeCase[T wide](n int, typ string, op *runtime.MergeOp[T]) Case {
	return Case{
		Algorithm: "merge", Type: typ, N: n, Bytes: 2 * int64(n) * int64(unsafe.Sizeof(*new(T))), Note: "n/2 + n/2 keys",
		Setup: func(env *Env) (*Instance, error) {
			r := rng(env, "merge", typ, n)
			a, b := randomItems[T](r, n/2), randomItems[T](r, n-n/2)
			// The host's share of a 2^28 case is mostly these sorts: each
			// in parallel, and the reference merged rather than sorted.
			parallelSort(a)
			parallelSort(b)
			want := mergeSorted(a, b)
			h := &holder{}
			ab, err := rot(h, env, a, 8)
			if err != nil {
				return nil, err
			}
			bb, err := rot(h, env, b, 8)
			if err != nil {
				return nil, err
			}
			out, err := alloc[T](h, env, n)
			if err != nil {
				return nil, err
			}
			return &Instance{
				Poison: poisoner(out),
				Run:    func(i int) error { return op.Run(env.Stream, ab[i%len(ab)], bb[i%len(bb)], out) },
				Check: func() error {
					got, err := out.ToHost()
					if err != nil {
						return err
					}
					return sameItems("merged keys", got, want)
				},
				Free: h.Free,
			}, nil
		},
	}
}

// mergeSorted is the stable merge of sorted a and b: of equal items, a's
// come first.
func mergeSorted[T wide](a, b []T) []T {
	out := make([]T, len(a)+len(b))
	mergeInto(out, a, b)
	return out
}

// sortedSearchCase times a lower bound of n sorted values in n sorted items:
// RunSorted's merge (lower_bound_sorted) or, on the same inputs, Run's
// binary search of every value (lower_bound_sorted_bsearch).
func sortedSearchCase[T wide](n int, typ string, op *runtime.SearchOp[T], merge bool) Case {
	size := int(unsafe.Sizeof(*new(T)))
	name := "lower_bound_sorted"
	if !merge {
		name += "_bsearch"
	}
	return Case{
		Algorithm: name, Type: typ, N: n, Bytes: int64(n) * int64(2*size+8),
		Note: "n sorted values in n sorted items, int64 results",
		Setup: func(env *Env) (*Instance, error) {
			r := rng(env, "lower_bound_sorted", typ, n)
			data, values := randomItems[T](r, n), randomItems[T](r, n)
			parallelSort(data)
			parallelSort(values)
			h := &holder{}
			dd, err := upload(h, env, data)
			if err != nil {
				return nil, err
			}
			bufs, err := rot(h, env, values, size)
			if err != nil {
				return nil, err
			}
			out, err := alloc[int64](h, env, n)
			if err != nil {
				return nil, err
			}
			run := op.Run
			if merge {
				run = op.RunSorted
			}
			return &Instance{
				Poison: poisoner(out),
				Run:    func(i int) error { return run(env.Stream, dd, bufs[i%len(bufs)], out) },
				Check: func() error {
					got, err := out.ToHost()
					if err != nil {
						return err
					}
					step := 1
					if n > 1<<22 {
						step = 61 // a sample
					}
					for i := 0; i < n; i += step {
						want, _ := slices.BinarySearch(data, values[i])
						if got[i] != int64(want) {
							return fmt.Errorf("result %d is %d, want %d", i, got[i], want)
						}
					}
					return nil
				},
				Free: h.Free,
			}, nil
		},
	}
}
