package runtime

import (
	"fmt"
	"slices"

	"github.com/gocccl/gocccl/internal/iter"
)

// segmentedScanHost runs a segmented scan on the CPU backend: it checks
// the offsets (in range, in order, not overlapping), then scans every
// segment in index order, segments in parallel, writing only the elements
// inside segments.
func segmentedScanHost[T any](op func(T, T) T, inclusive bool, d *Device, from src[T], b, e src[int64], seg segments, to sink[T], init segInit[T]) error {
	hin, err := from.host(d)
	if err != nil {
		return err
	}
	in := hin.host
	n := len(in)
	var begin, end []int64
	if seg.fixed {
		segs := (n + seg.size - 1) / seg.size
		begin, end = make([]int64, segs), make([]int64, segs)
		for i := range begin {
			begin[i], end[i] = int64(i*seg.size), int64(min(n, (i+1)*seg.size))
		}
	} else {
		hb, err := b.host(d)
		if err != nil {
			return err
		}
		he, err := e.host(d)
		if err != nil {
			return err
		}
		begin, end = hb.host, he.host
		if err := checkSegments(begin, end, n); err != nil {
			return err
		}
	}
	out := make([]T, n) // written through the composition afterwards
	if to.it == nil {
		out = to.s.host
	}
	if err := segmentedScanCPU(op, inclusive, in, out, begin, end, init, d.info.Workers); err != nil {
		return err
	}
	if to.it == nil {
		return nil
	}
	return to.flushSegments(out, begin, end)
}

// checkSegments checks that every segment [begin[s], end[s]) lies in
// [0, n) in order and that no two non-empty ones overlap.
func checkSegments(begin, end []int64, n int) error {
	sorted := true
	for i := range begin {
		if b, e := begin[i], end[i]; b < 0 || b > e || e > int64(n) {
			return fmt.Errorf("segment %d is [%d, %d), not within [0, %d) in order", i, b, e, n)
		}
		if i > 0 && begin[i] < begin[i-1] {
			sorted = false
		}
	}
	order := make([]int, 0, len(begin))
	for i := range begin {
		if begin[i] < end[i] {
			order = append(order, i)
		}
	}
	if !sorted {
		slices.SortFunc(order, func(x, y int) int { return int(begin[x] - begin[y]) })
	}
	for j := 1; j < len(order); j++ {
		if p, q := order[j-1], order[j]; end[p] > begin[q] {
			return fmt.Errorf("segments %d [%d, %d) and %d [%d, %d) overlap", p, begin[p], end[p], q, begin[q], end[q])
		}
	}
	return nil
}

// segmentedScanCPU scans in[begin[s]:end[s]] into out[begin[s]:end[s]] for
// every segment s, each in index order from init (when init.has), segments
// in parallel; the segments are in range and disjoint. out may be in.
func segmentedScanCPU[T any](op func(T, T) T, inclusive bool, in, out []T, begin, end []int64, init segInit[T], workers int) error {
	_, err := parallel(len(begin), workers, func(_, lo, hi int) {
		for s := lo; s < hi; s++ {
			acc, has := init.value, init.has
			for i := begin[s]; i < end[s]; i++ {
				v := in[i]
				if inclusive {
					if has {
						acc = op(acc, v)
					} else {
						acc, has = v, true
					}
					out[i] = acc
				} else {
					out[i] = acc
					acc = op(acc, v)
				}
			}
		}
	})
	return err
}

// flushSegments writes the elements of tmp inside the segments through the
// output composition, segment by segment in index order, and nothing else.
func (a sink[T]) flushSegments(tmp []T, begin, end []int64) (err error) {
	write, ok := a.it.root.Write.(iter.Writer[T])
	if !ok {
		return fmt.Errorf("gocccl: %s cannot be evaluated on the CPU backend", a.it.root.Sig())
	}
	f, err := write(&a.it.env)
	if err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("gocccl: operator panicked on the CPU backend: %v", r)
		}
	}()
	for s := range begin {
		for i := begin[s]; i < end[s]; i++ {
			f(i, tmp[i])
		}
	}
	return nil
}
