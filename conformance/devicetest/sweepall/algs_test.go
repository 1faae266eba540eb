package sweepall

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/gocccl/gocccl/runtime"
)

// entry is one algorithm over one element type (or pair of types): run
// allocates a state's fresh buffers, fills them, runs the algorithm and
// checks its result against the host.
type entry struct {
	alg   string // the runtime constructor
	types string
	pkg   string // the generated package of the instance
	run   func(c *state) error
}

func reduceEntry[T comparable](k kind[T], pkg, name string, op *runtime.ReduceOp[T], f func(a, b T) T) entry {
	return entry{"Reduce", k.name + " (" + name + ")", pkg, func(c *state) error {
		in, err := randomInput(c, k, count(c, sizeOf[T]()))
		if err != nil {
			return err
		}
		out, err := alloc[T](c, 1)
		if err != nil {
			return err
		}
		init := k.gen(c.r)
		if err := c.call(func() error { return op.Run(nil, in.dev, out, init) }); err != nil {
			return err
		}
		want := f(init, foldInput(f, in))
		return check(c, "reduction", out, 1, func(int) T { return want }, exact[T])
	}}
}

func transformReduceEntry[In, T any](kin kind[In], kout kind[T], pkg, name string, op *runtime.TransformReduceOp[In, T],
	tf func(In) T, f func(a, b T) T, eq func(n int) func(a, b T) bool) entry {
	return entry{"TransformReduce", kin.name + " → " + kout.name + " (" + name + ")", pkg, func(c *state) error {
		in, err := randomInput(c, kin, count(c, sizeOf[In](), sizeOf[T]()))
		if err != nil {
			return err
		}
		out, err := alloc[T](c, 1)
		if err != nil {
			return err
		}
		init := kout.gen(c.r)
		if err := c.call(func() error { return op.Run(nil, in.dev, out, init) }); err != nil {
			return err
		}
		mapped := &input[T]{block: make([]T, len(in.block)), n: in.n}
		for i, x := range in.block {
			mapped.block[i] = tf(x)
		}
		want := f(init, foldInput(f, mapped))
		return check(c, "reduction", out, 1, func(int) T { return want }, eq(in.n))
	}}
}

func unaryEntry[In any, Out comparable](kin kind[In], kout kind[Out], pkg, name string, op *runtime.UnaryTransformOp[In, Out], f func(In) Out) entry {
	return entry{"UnaryTransform", kin.name + " → " + kout.name + " (" + name + ")", pkg, func(c *state) error {
		in, err := randomInput(c, kin, count(c, sizeOf[In](), sizeOf[Out]()))
		if err != nil {
			return err
		}
		out, err := alloc[Out](c, in.n)
		if err != nil {
			return err
		}
		if err := c.call(func() error { return op.Run(nil, in.dev, out) }); err != nil {
			return err
		}
		return check(c, "output", out, in.n, func(i int) Out { return f(in.at(i)) }, exact[Out])
	}}
}

func binaryEntry[A, B any, Out comparable](ka kind[A], kb kind[B], kout kind[Out], pkg, name string, op *runtime.BinaryTransformOp[A, B, Out], f func(A, B) Out) entry {
	return entry{"BinaryTransform", ka.name + ", " + kb.name + " → " + kout.name + " (" + name + ")", pkg, func(c *state) error {
		n := count(c, sizeOf[A](), sizeOf[B](), sizeOf[Out]())
		a, err := randomInput(c, ka, n)
		if err != nil {
			return err
		}
		b, err := randomInput(c, kb, n)
		if err != nil {
			return err
		}
		out, err := alloc[Out](c, n)
		if err != nil {
			return err
		}
		if err := c.call(func() error { return op.Run(nil, a.dev, b.dev, out) }); err != nil {
			return err
		}
		return check(c, "output", out, n, func(i int) Out { return f(a.at(i), b.at(i)) }, exact[Out])
	}}
}

func forEachEntry[T comparable](k kind[T], pkg, name string, op *runtime.ForEachOp[T], f func(T) T) entry {
	return entry{"ForEach", k.name + " (" + name + ")", pkg, func(c *state) error {
		in, err := randomInput(c, k, count(c, sizeOf[T]()))
		if err != nil {
			return err
		}
		if err := c.call(func() error { return op.Run(nil, in.dev) }); err != nil {
			return err
		}
		return check(c, "data", in.dev, in.n, func(i int) T { return f(in.at(i)) }, exact[T])
	}}
}

// scanEntry is an inclusive scan (excl nil) or an exclusive one (incl nil)
// with an associative op.
func scanEntry[T any](k kind[T], pkg, name string, incl *runtime.InclusiveScanOp[T], excl *runtime.ExclusiveScanOp[T],
	f func(a, b T) T, eq func(n int) func(a, b T) bool) entry {
	alg := "InclusiveScan"
	if excl != nil {
		alg = "ExclusiveScan"
	}
	return entry{alg, k.name + " (" + name + ")", pkg, func(c *state) error {
		in, err := randomInput(c, k, count(c, sizeOf[T]()))
		if err != nil {
			return err
		}
		out, err := alloc[T](c, in.n)
		if err != nil {
			return err
		}
		scanB := scanOf(f, in.block)
		init := k.gen(c.r)
		want := func(i int) T { return prefix(f, scanB, i) }
		if excl != nil {
			err = c.call(func() error { return excl.Run(nil, in.dev, out, init) })
			want = func(i int) T {
				if i == 0 {
					return init
				}
				return f(init, prefix(f, scanB, i-1))
			}
		} else {
			err = c.call(func() error { return incl.Run(nil, in.dev, out) })
		}
		if err != nil {
			return err
		}
		return check(c, "scan", out, in.n, want, eq(in.n))
	}}
}

// scanByKeyEntry is an inclusive scan by key (excl nil) or an exclusive one.
func scanByKeyEntry[K, V any](kk kind[K], kv kind[V], pkg, name string, incl *runtime.InclusiveScanByKeyOp[K, V], excl *runtime.ExclusiveScanByKeyOp[K, V],
	eqK func(a, b K) bool, f func(a, b V) V, eq func(a, b V) bool) entry {
	alg := "InclusiveScanByKey"
	if excl != nil {
		alg = "ExclusiveScanByKey"
	}
	return entry{alg, kk.name + ", " + kv.name + " (" + name + ")", pkg, func(c *state) error {
		n := count(c, sizeOf[K](), sizeOf[V]())
		keys, err := runsInput(c, kk, n, 64, eqK)
		if err != nil {
			return err
		}
		vals, err := randomInput(c, kv, n)
		if err != nil {
			return err
		}
		out, err := alloc[V](c, n)
		if err != nil {
			return err
		}
		init := kv.gen(c.r)
		m := len(keys.block)
		want := make([]V, m) // the scan at each block position: runs never cross copies
		for r := range m {
			start := r == 0 || !eqK(keys.block[r], keys.block[r-1])
			switch {
			case excl != nil && start:
				want[r] = init
			case excl != nil:
				want[r] = f(want[r-1], vals.block[r-1])
			case start:
				want[r] = vals.block[r]
			default:
				want[r] = f(want[r-1], vals.block[r])
			}
		}
		if excl != nil {
			err = c.call(func() error { return excl.Run(nil, keys.dev, vals.dev, out, init) })
		} else {
			err = c.call(func() error { return incl.Run(nil, keys.dev, vals.dev, out) })
		}
		if err != nil {
			return err
		}
		return check(c, "scan", out, n, func(i int) V { return want[i%m] }, eq)
	}}
}

// filter returns the elements of xs for which keep holds.
func filter[T any](keep func(T) bool) func(xs []T) []T {
	return func(xs []T) []T {
		var out []T
		for _, x := range xs {
			if keep(x) {
				out = append(out, x)
			}
		}
		return out
	}
}

func selectEntry[T comparable](k kind[T], pkg string, op *runtime.SelectOp[T], keep func(T) bool) entry {
	return entry{"Select", k.name, pkg, func(c *state) error {
		in, err := randomInput(c, k, count(c, sizeOf[T]()))
		if err != nil {
			return err
		}
		out, err := alloc[T](c, in.n)
		if err != nil {
			return err
		}
		cnt, err := alloc[int64](c, 1)
		if err != nil {
			return err
		}
		if err := c.call(func() error { return op.Run(nil, in.dev, out, cnt) }); err != nil {
			return err
		}
		kept := over(in, filter(keep))
		if err := checkCount("selected", cnt, 0, int64(kept.len())); err != nil {
			return err
		}
		return check(c, "selected", out, kept.len(), kept.at, exact[T])
	}}
}

func partitionEntry[T comparable](k kind[T], pkg string, op *runtime.PartitionOp[T], keep func(T) bool) entry {
	return entry{"Partition", k.name, pkg, func(c *state) error {
		in, err := randomInput(c, k, count(c, sizeOf[T]()))
		if err != nil {
			return err
		}
		out, err := alloc[T](c, in.n)
		if err != nil {
			return err
		}
		cnt, err := alloc[int64](c, 1)
		if err != nil {
			return err
		}
		if err := c.call(func() error { return op.Run(nil, in.dev, out, cnt) }); err != nil {
			return err
		}
		kept := over(in, filter(keep))
		rejected := over(in, filter(func(x T) bool { return !keep(x) }))
		k := kept.len()
		if err := checkCount("selected", cnt, 0, int64(k)); err != nil {
			return err
		}
		// The kept elements in order, then the others in reverse order.
		return check(c, "partitioned", out, in.n, func(i int) T {
			if i < k {
				return kept.at(i)
			}
			return rejected.at(in.n - 1 - i)
		}, exact[T])
	}}
}

func threeWayEntry[T comparable](k kind[T], pkg string, op *runtime.ThreeWayPartitionOp[T], first, second func(T) bool) entry {
	return entry{"ThreeWayPartition", k.name, pkg, func(c *state) error {
		in, err := randomInput(c, k, count(c, sizeOf[T]()))
		if err != nil {
			return err
		}
		var outs [3]*runtime.Slice[T]
		for i := range outs {
			if outs[i], err = alloc[T](c, in.n); err != nil {
				return err
			}
		}
		cnt, err := alloc[int64](c, 2)
		if err != nil {
			return err
		}
		if err := c.call(func() error { return op.Run(nil, in.dev, outs[0], outs[1], outs[2], cnt) }); err != nil {
			return err
		}
		parts := [3]periodic[T]{
			over(in, filter(first)),
			over(in, filter(func(x T) bool { return !first(x) && second(x) })),
			over(in, filter(func(x T) bool { return !first(x) && !second(x) })),
		}
		for i, p := range parts {
			what := fmt.Sprintf("part %d", i)
			if i < 2 {
				if err := checkCount(what, cnt, i, int64(p.len())); err != nil {
					return err
				}
			}
			if err := check(c, what, outs[i], p.len(), p.at, exact[T]); err != nil {
				return err
			}
		}
		return nil
	}}
}

// firsts returns the first element of every run of xs.
func firsts[T any](eq func(a, b T) bool) func(xs []T) []T {
	return func(xs []T) []T {
		var out []T
		for _, s := range runStarts(xs, eq) {
			out = append(out, xs[s])
		}
		return out
	}
}

func uniqueEntry[T comparable](k kind[T], pkg string, op *runtime.UniqueOp[T], eq func(a, b T) bool) entry {
	return entry{"Unique", k.name, pkg, func(c *state) error {
		in, err := runsInput(c, k, count(c, sizeOf[T]()), 8, eq)
		if err != nil {
			return err
		}
		out, err := alloc[T](c, in.n)
		if err != nil {
			return err
		}
		cnt, err := alloc[int64](c, 1)
		if err != nil {
			return err
		}
		if err := c.call(func() error { return op.Run(nil, in.dev, out, cnt) }); err != nil {
			return err
		}
		want := over(in, firsts(eq))
		if err := checkCount("unique", cnt, 0, int64(want.len())); err != nil {
			return err
		}
		return check(c, "unique", out, want.len(), want.at, exact[T])
	}}
}

func uniqueByKeyEntry[K, V comparable](kk kind[K], kv kind[V], pkg string, op *runtime.UniqueByKeyOp[K, V], eq func(a, b K) bool) entry {
	return entry{"UniqueByKey", kk.name + ", " + kv.name, pkg, func(c *state) error {
		n := count(c, sizeOf[K](), sizeOf[V]())
		keys, err := runsInput(c, kk, n, 8, eq)
		if err != nil {
			return err
		}
		vals, err := randomInput(c, kv, n)
		if err != nil {
			return err
		}
		keysOut, err := alloc[K](c, n)
		if err != nil {
			return err
		}
		valsOut, err := alloc[V](c, n)
		if err != nil {
			return err
		}
		cnt, err := alloc[int64](c, 1)
		if err != nil {
			return err
		}
		if err := c.call(func() error { return op.Run(nil, keys.dev, vals.dev, keysOut, valsOut, cnt) }); err != nil {
			return err
		}
		wantK := over(keys, firsts(eq))
		wantV := over(keys, func(ks []K) []V {
			var out []V
			for _, s := range runStarts(ks, eq) {
				out = append(out, vals.block[s])
			}
			return out
		})
		if err := checkCount("unique keys", cnt, 0, int64(wantK.len())); err != nil {
			return err
		}
		if err := check(c, "unique keys", keysOut, wantK.len(), wantK.at, exact[K]); err != nil {
			return err
		}
		return check(c, "their values", valsOut, wantV.len(), wantV.at, exact[V])
	}}
}

// runs returns the start and the length of every run of xs.
func runs[T any](xs []T, eq func(a, b T) bool) (starts, lengths []int64) {
	s := runStarts(xs, eq)
	for i, st := range s {
		end := len(xs)
		if i+1 < len(s) {
			end = s[i+1]
		}
		starts = append(starts, int64(st))
		lengths = append(lengths, int64(end-st))
	}
	return starts, lengths
}

// rleEntry checks Run and RunNonTrivial on one input.
func rleEntry[T comparable](k kind[T], pkg string, op *runtime.RunLengthEncodeOp[T], eq func(a, b T) bool) entry {
	return entry{"RunLengthEncode", k.name, pkg, func(c *state) error {
		in, err := runsInput(c, k, count(c, sizeOf[T](), 8), 8, eq)
		if err != nil {
			return err
		}
		unique, err := alloc[T](c, in.n)
		if err != nil {
			return err
		}
		var lens [2]*runtime.Slice[int64]
		if lens[0], err = alloc[int64](c, in.n); err != nil {
			return err
		}
		half := max(1, in.n/2)
		offsets, err := alloc[int64](c, half)
		if err != nil {
			return err
		}
		if lens[1], err = alloc[int64](c, half); err != nil {
			return err
		}
		cnt, err := alloc[int64](c, 2)
		if err != nil {
			return err
		}
		cnt1 := cnt.Range(0, 1) // views made once: a Range allocates
		if err := c.call(func() error { return op.Run(nil, in.dev, unique, lens[0], cnt1) }); err != nil {
			return err
		}
		if err := op.RunNonTrivial(nil, in.dev, offsets, lens[1], cnt.Range(1, 2)); err != nil {
			return err
		}
		wantU := over(in, firsts(eq))
		wantL := over(in, func(xs []T) []int64 { _, l := runs(xs, eq); return l })
		nonTrivial := func(xs []T) (offs, ls []int64) {
			s, l := runs(xs, eq)
			for i := range s {
				if l[i] > 1 {
					offs, ls = append(offs, s[i]), append(ls, l[i])
				}
			}
			return offs, ls
		}
		wantO := over(in, func(xs []T) []int64 { o, _ := nonTrivial(xs); return o })
		m := int64(len(in.block))
		wantO.shift = func(x int64, copy int) int64 { return x + int64(copy)*m }
		wantNL := over(in, func(xs []T) []int64 { _, l := nonTrivial(xs); return l })
		if err := checkCount("runs", cnt, 0, int64(wantU.len())); err != nil {
			return err
		}
		if err := check(c, "run values", unique, wantU.len(), wantU.at, exact[T]); err != nil {
			return err
		}
		if err := check(c, "run lengths", lens[0], wantL.len(), wantL.at, exact[int64]); err != nil {
			return err
		}
		if err := checkCount("non-trivial runs", cnt, 1, int64(wantO.len())); err != nil {
			return err
		}
		if err := check(c, "non-trivial offsets", offsets, wantO.len(), wantO.at, exact[int64]); err != nil {
			return err
		}
		return check(c, "non-trivial lengths", lens[1], wantNL.len(), wantNL.at, exact[int64])
	}}
}

func reduceByKeyEntry[K comparable, V any](kk kind[K], kv kind[V], pkg, name string, op *runtime.ReduceByKeyOp[K, V],
	eqK func(a, b K) bool, f func(a, b V) V, eq func(a, b V) bool) entry {
	return entry{"ReduceByKey", kk.name + ", " + kv.name + " (" + name + ")", pkg, func(c *state) error {
		n := count(c, sizeOf[K](), sizeOf[V]())
		keys, err := runsInput(c, kk, n, 16, eqK)
		if err != nil {
			return err
		}
		vals, err := randomInput(c, kv, n)
		if err != nil {
			return err
		}
		unique, err := alloc[K](c, n)
		if err != nil {
			return err
		}
		aggs, err := alloc[V](c, n)
		if err != nil {
			return err
		}
		cnt, err := alloc[int64](c, 1)
		if err != nil {
			return err
		}
		if err := c.call(func() error { return op.Run(nil, keys.dev, vals.dev, unique, aggs, cnt) }); err != nil {
			return err
		}
		wantK := over(keys, firsts(eqK))
		wantV := over(keys, func(ks []K) []V {
			s, l := runs(ks, eqK)
			out := make([]V, len(s))
			for i := range s {
				out[i] = must(fold(f, vals.block[s[i]:s[i]+l[i]]))
			}
			return out
		})
		if err := checkCount("runs", cnt, 0, int64(wantK.len())); err != nil {
			return err
		}
		if err := check(c, "unique keys", unique, wantK.len(), wantK.at, exact[K]); err != nil {
			return err
		}
		return check(c, "aggregates", aggs, wantV.len(), wantV.at, eq)
	}}
}

func segmentedReduceEntry[T any](k kind[T], pkg, name string, op *runtime.SegmentedReduceOp[T], f func(a, b T) T, eq func(n int) func(a, b T) bool) entry {
	return entry{"SegmentedReduce", k.name + " (" + name + ")", pkg, func(c *state) error {
		in, err := randomInput(c, k, count(c, sizeOf[T]()))
		if err != nil {
			return err
		}
		m, full := len(in.block), in.full()
		offs := segments(c.r, m, 200)
		per := len(offs) - 1
		segs := full * per // the segments of the whole copies; the cut copy is in none
		offsets, err := upload(c, segs+1, func(i int) int64 { return int64(i/per*m + offs[i%per]) })
		if err != nil {
			return err
		}
		out, err := alloc[T](c, segs)
		if err != nil {
			return err
		}
		init := k.gen(c.r)
		begins, ends := offsets.Range(0, segs), offsets.Range(1, segs+1) // views made once: a Range allocates
		if err := c.call(func() error { return op.Run(nil, in.dev, begins, ends, out, init) }); err != nil {
			return err
		}
		want := make([]T, per)
		for s := range per {
			want[s] = init
			if r, ok := fold(f, in.block[offs[s]:offs[s+1]]); ok {
				want[s] = f(init, r)
			}
		}
		return check(c, "segment reductions", out, segs, func(i int) T { return want[i%per] }, eq(m))
	}}
}

func adjacentDifferenceEntry[T comparable](k kind[T], pkg, name string, op *runtime.AdjacentDifferenceOp[T], f func(a, b T) T) entry {
	return entry{"AdjacentDifference", k.name + " (" + name + ")", pkg, func(c *state) error {
		in, err := randomInput(c, k, count(c, sizeOf[T]()))
		if err != nil {
			return err
		}
		left, err := alloc[T](c, in.n)
		if err != nil {
			return err
		}
		right, err := alloc[T](c, in.n)
		if err != nil {
			return err
		}
		if err := c.call(func() error { return op.Run(nil, in.dev, left) }); err != nil {
			return err
		}
		if err := op.RunRight(nil, in.dev, right); err != nil {
			return err
		}
		if err := check(c, "left differences", left, in.n, func(i int) T {
			if i == 0 {
				return in.at(0)
			}
			return f(in.at(i), in.at(i-1))
		}, exact[T]); err != nil {
			return err
		}
		return check(c, "right differences", right, in.n, func(i int) T {
			if i == in.n-1 {
				return in.at(i)
			}
			return f(in.at(i), in.at(i+1))
		}, exact[T])
	}}
}

// evenBin is the bin of x in numBins even bins over [lower, upper), as
// HistogramEvenOp.Run documents it; ok is false outside.
func evenBin[T runtime.HistogramSample](x, lower, upper T, numBins int) (int, bool) {
	if !(x >= lower && x < upper) {
		return 0, false
	}
	switch any(x).(type) {
	case float32, float64:
		scale := T(numBins) / (upper - lower)
		d := x - lower
		b := int(d * scale)
		return min(b, numBins-1), true
	}
	num := new(big.Int).Sub(toBig(x), toBig(lower))
	num.Mul(num, big.NewInt(int64(numBins)))
	num.Quo(num, new(big.Int).Sub(toBig(upper), toBig(lower)))
	return int(num.Int64()), true
}

// toBig converts an integer to a big.Int.
func toBig(x any) *big.Int {
	switch v := x.(type) {
	case int8:
		return big.NewInt(int64(v))
	case int16:
		return big.NewInt(int64(v))
	case int32:
		return big.NewInt(int64(v))
	case int64:
		return big.NewInt(v)
	case int:
		return big.NewInt(int64(v))
	case uint8:
		return new(big.Int).SetUint64(uint64(v))
	case uint16:
		return new(big.Int).SetUint64(uint64(v))
	case uint32:
		return new(big.Int).SetUint64(uint64(v))
	case uint64:
		return new(big.Int).SetUint64(v)
	case uint:
		return new(big.Int).SetUint64(uint64(v))
	case uintptr:
		return new(big.Int).SetUint64(uint64(v))
	}
	return new(big.Int)
}

// histogramOf counts the input into bins by bin: the block's counts times
// its whole copies plus the cut copy's.
func histogramOf[T any](in *input[T], bins int, bin func(T) (int, bool)) []int32 {
	h := make([]int32, bins)
	for i, x := range in.block {
		if b, ok := bin(x); ok {
			h[b] += int32(in.full())
			if i < in.rest() {
				h[b]++
			}
		}
	}
	return h
}

// quantiles returns up to k+1 distinct increasing values of the sorted
// block, from its lo-th to its hi-th percentile.
func quantiles[T runtime.HistogramSample](block []T, k, lo, hi int) []T {
	s := slices.Clone(block)
	slices.Sort(s)
	var q []T
	for i := range k + 1 {
		x := s[(len(s)-1)*(lo+(hi-lo)*i/k)/100]
		if len(q) == 0 || x > q[len(q)-1] {
			q = append(q, x)
		}
	}
	return q
}

func histogramEvenEntry[T runtime.HistogramSample](k kind[T], pkg string, op *runtime.HistogramEvenOp[T]) entry {
	return entry{"HistogramEven", k.name, pkg, func(c *state) error {
		in, err := randomInput(c, k, count(c, sizeOf[T]()))
		if err != nil {
			return err
		}
		// The 30th and 70th percentiles: upper-lower must not overflow T,
		// and full-range signed integers span twice MaxInt64.
		q := quantiles(in.block, 1, 30, 70)
		if len(q) < 2 {
			return fmt.Errorf("the block's quantiles are equal: %v", q)
		}
		const bins = 64
		hist, err := alloc[int32](c, bins)
		if err != nil {
			return err
		}
		if err := c.call(func() error { return op.Run(nil, in.dev, hist, bins, q[0], q[1]) }); err != nil {
			return err
		}
		want := histogramOf(in, bins, func(x T) (int, bool) { return evenBin(x, q[0], q[1], bins) })
		return check(c, "histogram", hist, bins, func(i int) int32 { return want[i] }, exact[int32])
	}}
}

func histogramRangeEntry[T runtime.HistogramSample](k kind[T], pkg string, op *runtime.HistogramRangeOp[T]) entry {
	return entry{"HistogramRange", k.name, pkg, func(c *state) error {
		in, err := randomInput(c, k, count(c, sizeOf[T]()))
		if err != nil {
			return err
		}
		q := quantiles(in.block, 32, 5, 95)
		levels, err := fromHost(c, q)
		if err != nil {
			return err
		}
		bins := len(q) - 1
		hist, err := alloc[int32](c, bins)
		if err != nil {
			return err
		}
		if err := c.call(func() error { return op.Run(nil, in.dev, hist, levels) }); err != nil {
			return err
		}
		want := histogramOf(in, bins, func(x T) (int, bool) {
			if !(x >= q[0] && x < q[bins]) {
				return 0, false
			}
			return sort.Search(len(q), func(i int) bool { return q[i] > x }) - 1, true
		})
		return check(c, "histogram", hist, bins, func(i int) int32 { return want[i] }, exact[int32])
	}}
}

// searchData is the sorted data of the searches: step × (i/2), each value
// twice, and the count of its elements below v (lower) or at most v.
type searchData[T any] struct {
	at           func(i int) T
	value        func(r *rand.Rand, n int) T // a search value in and around the data's range
	lower, upper func(v T, n int) int64
}

var searchUint32 = searchData[uint32]{
	at:    func(i int) uint32 { return uint32(3 * (i / 2)) },
	value: func(r *rand.Rand, n int) uint32 { return uint32(r.Int64N(int64(3*(n/2) + 6))) },
	lower: func(v uint32, n int) int64 { return min(int64(n), 2*((int64(v)+2)/3)) },
	upper: func(v uint32, n int) int64 { return min(int64(n), 2*(int64(v)/3+1)) },
}

var searchFloat64 = searchData[float64]{
	at:    func(i int) float64 { return 1.5 * float64(i/2) },
	value: func(r *rand.Rand, n int) float64 { return 0.75 * float64(r.Int64N(int64(2*(n/2)+9))-4) },
	lower: func(v float64, n int) int64 {
		if v <= 0 {
			return 0
		}
		return min(int64(n), 2*int64(math.Ceil(v/1.5)))
	},
	upper: func(v float64, n int) int64 {
		if v < 0 {
			return 0
		}
		return min(int64(n), 2*(int64(math.Floor(v/1.5))+1))
	},
}

func searchEntry[T any](k kind[T], pkg, alg string, op *runtime.SearchOp[T], sd searchData[T]) entry {
	return entry{alg, k.name, pkg, func(c *state) error {
		n := count(c, sizeOf[T](), 8)
		data, err := upload(c, n, sd.at)
		if err != nil {
			return err
		}
		block := make([]T, min(n, blockLen))
		for i := range block {
			block[i] = sd.value(c.r, n)
		}
		vals, err := fillHost(c, block, n)
		if err != nil {
			return err
		}
		out, err := alloc[int64](c, n)
		if err != nil {
			return err
		}
		if err := c.call(func() error { return op.Run(nil, data, vals.dev, out) }); err != nil {
			return err
		}
		want := sd.lower
		if alg == "UpperBound" {
			want = sd.upper
		}
		return check(c, "indices", out, n, func(i int) int64 { return want(vals.at(i), n) }, exact[int64])
	}}
}

func mergeEntry[T comparable](k kind[T], pkg, name string, op *runtime.MergeOp[T], less func(a, b T) bool, conv func(int) T) entry {
	return entry{"Merge", k.name + " (" + name + ")", pkg, func(c *state) error {
		na := count(c, sizeOf[T]())
		nb := na - na/4
		a := func(i int) T { return conv(2 * i) }
		b := func(j int) T { return conv(2*j + 1) }
		da, err := upload(c, na, a)
		if err != nil {
			return err
		}
		db, err := upload(c, nb, b)
		if err != nil {
			return err
		}
		out, err := alloc[T](c, na+nb)
		if err != nil {
			return err
		}
		if err := c.call(func() error { return op.Run(nil, da, db, out) }); err != nil {
			return err
		}
		// The element at p: the merge path's split of the first p
		// elements into ia of a and p-ia of b (a first among equals).
		at := func(p int) T {
			lo, hi := max(0, p-nb), min(p, na)
			ia := lo + sort.Search(hi-lo, func(k int) bool {
				i := lo + k
				return p-i-1 < 0 || less(b(p-i-1), a(i))
			})
			if j := p - ia; ia < na && (j >= nb || !less(b(j), a(ia))) {
				return a(ia)
			}
			return b(p - ia)
		}
		return check(c, "merged", out, na+nb, at, exact[T])
	}}
}

// sortCheck checks the keys (and values, when vals is not nil) a stable
// sort of keys wrote to keysOut and valsOut.
func sortCheck[K, V comparable](c *state, keys *input[K], vals *input[V], keysOut *runtime.Slice[K], valsOut *runtime.Slice[V], less func(a, b K) bool, desc bool) error {
	o := sortOrder(keys, less, desc)
	if err := check(c, "sorted keys", keysOut, keys.n, func(i int) K { return keys.block[o.at(i)] }, exact[K]); err != nil {
		return err
	}
	if vals == nil {
		return nil
	}
	return check(c, "their values", valsOut, keys.n, func(i int) V { return vals.block[o.at(i)] }, exact[V])
}

func radixKeysEntry[K runtime.RadixKey](k kind[K], pkg string, op *runtime.RadixSortKeysOp[K]) entry {
	return entry{"RadixSortKeys", k.name, pkg, func(c *state) error {
		in, err := randomInput(c, k, count(c, sizeOf[K]()))
		if err != nil {
			return err
		}
		out, err := alloc[K](c, in.n)
		if err != nil {
			return err
		}
		desc := c.r.IntN(2) == 0
		if err := c.call(func() error { return op.Run(nil, in.dev, out, runtime.RadixOptions{Descending: desc}) }); err != nil {
			return err
		}
		return sortCheck[K, int8](c, in, nil, out, nil, lessOrdered[K], desc)
	}}
}

func radixPairsEntry[K runtime.RadixKey, V comparable](kk kind[K], kv kind[V], pkg string, op *runtime.RadixSortPairsOp[K, V]) entry {
	return entry{"RadixSortPairs", kk.name + ", " + kv.name, pkg, func(c *state) error {
		n := count(c, sizeOf[K](), sizeOf[V]())
		keys, err := randomInput(c, kk, n)
		if err != nil {
			return err
		}
		vals, err := randomInput(c, kv, n)
		if err != nil {
			return err
		}
		keysOut, err := alloc[K](c, n)
		if err != nil {
			return err
		}
		valsOut, err := alloc[V](c, n)
		if err != nil {
			return err
		}
		desc := c.r.IntN(2) == 0
		if err := c.call(func() error {
			return op.Run(nil, keys.dev, keysOut, vals.dev, valsOut, runtime.RadixOptions{Descending: desc})
		}); err != nil {
			return err
		}
		return sortCheck(c, keys, vals, keysOut, valsOut, lessOrdered[K], desc)
	}}
}

func mergeSortKeysEntry[K comparable](k kind[K], pkg, name string, op *runtime.MergeSortKeysOp[K], less func(a, b K) bool) entry {
	return entry{"MergeSortKeys", k.name + " (" + name + ")", pkg, func(c *state) error {
		in, err := randomInput(c, k, count(c, sizeOf[K]()))
		if err != nil {
			return err
		}
		if err := c.call(func() error { return op.Run(nil, in.dev) }); err != nil {
			return err
		}
		return sortCheck[K, int8](c, in, nil, in.dev, nil, less, false)
	}}
}

func mergeSortPairsEntry[K, V comparable](kk kind[K], kv kind[V], pkg, name string, op *runtime.MergeSortPairsOp[K, V], less func(a, b K) bool) entry {
	return entry{"MergeSortPairs", kk.name + ", " + kv.name + " (" + name + ")", pkg, func(c *state) error {
		n := count(c, sizeOf[K](), sizeOf[V]())
		keys, err := randomInput(c, kk, n)
		if err != nil {
			return err
		}
		vals, err := randomInput(c, kv, n)
		if err != nil {
			return err
		}
		if err := c.call(func() error { return op.Run(nil, keys.dev, vals.dev) }); err != nil {
			return err
		}
		return sortCheck(c, keys, vals, keys.dev, vals.dev, less, false)
	}}
}

// segmentedSort is the segments of a segmented sort of a periodic input:
// every copy of the block cut the same way (the last copy's segments cut at
// its end), and where the sort puts each element of a copy.
type segmentedSort struct {
	offsets    *runtime.Slice[int64]
	segs       int
	perm, rest []int // the block offset at each position of a whole copy and of the cut one
	full       int   // the whole copies
}

func newSegmentedSort[K any](c *state, keys *input[K], desc bool) (*segmentedSort, error) {
	m, full, rest := len(keys.block), keys.full(), keys.rest()
	offs := segments(c.r, m, 300)
	per := len(offs) - 1
	copies := full
	if rest > 0 {
		copies++
	}
	segs := copies * per
	offsets, err := upload(c, segs+1, func(i int) int64 {
		if i == segs {
			return int64(keys.n)
		}
		q, k := i/per, i%per
		if q < full {
			return int64(q*m + offs[k])
		}
		return int64(full*m + min(offs[k], rest))
	})
	if err != nil {
		return nil, err
	}
	less := func(a, b int) int {
		x, y := keys.block[a], keys.block[b]
		if desc {
			x, y = y, x
		}
		return cmpAny(x, y)
	}
	order := func(limit int) []int {
		p := make([]int, limit)
		for i := range p {
			p[i] = i
		}
		for k := range per {
			lo, hi := min(offs[k], limit), min(offs[k+1], limit)
			slices.SortStableFunc(p[lo:hi], less)
		}
		return p
	}
	return &segmentedSort{offsets: offsets, segs: segs, perm: order(m), rest: order(rest), full: full}, nil
}

// cmpAny compares two keys of a radix key type.
func cmpAny[K any](x, y K) int {
	switch a := any(x).(type) {
	case int8:
		return cmpOf(a, any(y).(int8))
	case int16:
		return cmpOf(a, any(y).(int16))
	case int32:
		return cmpOf(a, any(y).(int32))
	case int64:
		return cmpOf(a, any(y).(int64))
	case int:
		return cmpOf(a, any(y).(int))
	case uint8:
		return cmpOf(a, any(y).(uint8))
	case uint16:
		return cmpOf(a, any(y).(uint16))
	case uint32:
		return cmpOf(a, any(y).(uint32))
	case uint64:
		return cmpOf(a, any(y).(uint64))
	case uint:
		return cmpOf(a, any(y).(uint))
	case uintptr:
		return cmpOf(a, any(y).(uintptr))
	case float32:
		return cmpOf(a, any(y).(float32))
	case float64:
		return cmpOf(a, any(y).(float64))
	}
	return 0
}

func cmpOf[T runtime.RadixKey](a, b T) int {
	switch {
	case a < b:
		return -1
	case b < a:
		return 1
	}
	return 0
}

// at is the block offset of the element the sort writes to position i.
func (s *segmentedSort) at(i int) int {
	m := len(s.perm)
	if i/m < s.full {
		return s.perm[i%m]
	}
	return s.rest[i%m]
}

func segSortKeysEntry[K runtime.RadixKey](k kind[K], pkg string, op *runtime.SegmentedSortKeysOp[K]) entry {
	return entry{"SegmentedSortKeys", k.name, pkg, func(c *state) error {
		in, err := randomInput(c, k, count(c, sizeOf[K]()))
		if err != nil {
			return err
		}
		out, err := alloc[K](c, in.n)
		if err != nil {
			return err
		}
		desc := c.r.IntN(2) == 0
		ss, err := newSegmentedSort(c, in, desc)
		if err != nil {
			return err
		}
		begins, ends := ss.offsets.Range(0, ss.segs), ss.offsets.Range(1, ss.segs+1) // views made once: a Range allocates
		if err := c.call(func() error {
			return op.Run(nil, in.dev, out, begins, ends, runtime.SegmentedSortOptions{Descending: desc})
		}); err != nil {
			return err
		}
		return check(c, "sorted keys", out, in.n, func(i int) K { return in.block[ss.at(i)] }, exact[K])
	}}
}

func segSortPairsEntry[K runtime.RadixKey, V comparable](kk kind[K], kv kind[V], pkg string, op *runtime.SegmentedSortPairsOp[K, V]) entry {
	return entry{"SegmentedSortPairs", kk.name + ", " + kv.name, pkg, func(c *state) error {
		n := count(c, sizeOf[K](), sizeOf[V]())
		keys, err := randomInput(c, kk, n)
		if err != nil {
			return err
		}
		vals, err := randomInput(c, kv, n)
		if err != nil {
			return err
		}
		keysOut, err := alloc[K](c, n)
		if err != nil {
			return err
		}
		valsOut, err := alloc[V](c, n)
		if err != nil {
			return err
		}
		desc := c.r.IntN(2) == 0
		ss, err := newSegmentedSort(c, keys, desc)
		if err != nil {
			return err
		}
		begins, ends := ss.offsets.Range(0, ss.segs), ss.offsets.Range(1, ss.segs+1) // views made once: a Range allocates
		if err := c.call(func() error {
			return op.Run(nil, keys.dev, keysOut, vals.dev, valsOut, begins, ends, runtime.SegmentedSortOptions{Descending: desc})
		}); err != nil {
			return err
		}
		if err := check(c, "sorted keys", keysOut, n, func(i int) K { return keys.block[ss.at(i)] }, exact[K]); err != nil {
			return err
		}
		return check(c, "their values", valsOut, n, func(i int) V { return vals.block[ss.at(i)] }, exact[V])
	}}
}
