package sweepall

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"unsafe"

	"github.com/gocccl/gocccl/conformance/devicetest"
	"github.com/gocccl/gocccl/runtime"
)

// blockLen is the length of the random block a state's input repeats: its
// checks compute on the host over a block, not over the whole input. The
// CPU smoke run shortens it, so that its small inputs still hold several
// copies.
var blockLen = 1 << 16

// window is the length of the output windows a check reads back.
const window = 1024

// rootPkg is the generated package whose UnaryTransforms fill numeric
// inputs on the device.
const rootPkg = "github.com/gocccl/gocccl/conformance/devicetest"

// freer is a buffer a state allocated.
type freer interface{ Free() error }

// state is one state of the sweep: its device, its random source, the size
// of its largest buffer, and what it allocated.
type state struct {
	d         *runtime.Device
	r         *rand.Rand
	bytes     int64
	bufs      []freer
	allocated int64
	pkgs      map[string]bool // the generated packages whose instances ran, over the whole sweep
	// keep, when set (TestAllocsPerCall), makes call keep each algorithm call
	// in calls, to run it again after the entry has checked its result.
	keep  bool
	calls []func() error
}

// call makes an entry's algorithm call f (its checked result is the first
// run's) and, when the state keeps calls, keeps f to be run again.
func (c *state) call(f func() error) error {
	if c.keep {
		c.calls = append(c.calls, f)
	}
	return f()
}

// release frees the state's buffers, or drops them for the collector.
func (c *state) release(free bool) error {
	bufs := c.bufs
	c.bufs = nil
	if !free {
		return nil
	}
	for _, b := range bufs {
		if err := b.Free(); err != nil {
			return fmt.Errorf("free: %w", err)
		}
	}
	return nil
}

func sizeOf[T any]() int64 {
	var zero T
	return int64(unsafe.Sizeof(zero))
}

// count returns how many elements of the largest type of a state fit in its
// buffer size: the state's element count.
func count(c *state, sizes ...int64) int {
	return int(max(1, c.bytes/slices.Max(sizes)))
}

// alloc allocates a fresh buffer of n elements for the state.
func alloc[T any](c *state, n int) (*runtime.Slice[T], error) {
	s, err := runtime.Alloc[T](c.d, n)
	if err != nil {
		return nil, fmt.Errorf("alloc %d × %T after %d MiB: %w", n, *new(T), c.allocated>>20, err)
	}
	c.bufs = append(c.bufs, s)
	c.allocated += int64(n) * sizeOf[T]()
	return s, nil
}

// fromHost allocates a fresh buffer holding xs.
func fromHost[T any](c *state, xs []T) (*runtime.Slice[T], error) {
	s, err := alloc[T](c, len(xs))
	if err != nil {
		return nil, err
	}
	if err := s.CopyFromHost(xs); err != nil {
		return nil, fmt.Errorf("upload: %w", err)
	}
	return s, nil
}

// affineFill returns the root package's UnaryTransform of T and its Go
// operator, which fill an input on the device from one uploaded block;
// ok is false for the types it has none of (structs), which are uploaded.
func affineFill[T any]() (op *runtime.UnaryTransformOp[T, T], f func(T) T, ok bool) {
	var o, fn any
	switch any(*new(T)).(type) {
	case int8:
		o, fn = devicetest.AffineTInt8, devicetest.AffineInt8
	case int16:
		o, fn = devicetest.AffineTInt16, devicetest.AffineInt16
	case int32:
		o, fn = devicetest.AffineTInt32, devicetest.AffineInt32
	case int64:
		o, fn = devicetest.AffineTInt64, devicetest.AffineInt64
	case int:
		o, fn = devicetest.AffineTInt, devicetest.AffineInt
	case uint8:
		o, fn = devicetest.AffineTUint8, devicetest.AffineUint8
	case uint16:
		o, fn = devicetest.AffineTUint16, devicetest.AffineUint16
	case uint32:
		o, fn = devicetest.AffineTUint32, devicetest.AffineUint32
	case uint64:
		o, fn = devicetest.AffineTUint64, devicetest.AffineUint64
	case uint:
		o, fn = devicetest.AffineTUint, devicetest.AffineUint
	case uintptr:
		o, fn = devicetest.AffineTUintptr, devicetest.AffineUintptr
	case float32:
		o, fn = devicetest.AffineTFloat32, devicetest.AffineFloat32
	case float64:
		o, fn = devicetest.AffineTFloat64, devicetest.AffineFloat64
	default:
		return nil, nil, false
	}
	op, ok1 := o.(*runtime.UnaryTransformOp[T, T])
	f, ok2 := fn.(func(T) T)
	return op, f, ok1 && ok2
}

// input is a state's fresh input of n elements: a block repeated, the last
// copy cut at n.
type input[T any] struct {
	dev   *runtime.Slice[T]
	block []T
	n     int
}

func (in *input[T]) at(i int) T { return in.block[i%len(in.block)] }

// full and rest are the input's whole copies of the block and the length of
// the cut one.
func (in *input[T]) full() int { return in.n / len(in.block) }
func (in *input[T]) rest() int { return in.n % len(in.block) }

// fill allocates a fresh input of n elements repeating block (at most n
// long). A numeric block is uploaded once and copied across the input on
// the device by the root package's Affine transform, so the input repeats
// Affine(block), which the returned input's block holds; other blocks are
// uploaded copy after copy.
func fill[T any](c *state, block []T, n int) (*input[T], error) {
	return fillWith(c, block, n, true)
}

// fillHost is fill that uploads every copy of the block, for inputs whose
// values must stay as they are (search values in the data's range).
func fillHost[T any](c *state, block []T, n int) (*input[T], error) {
	return fillWith(c, block, n, false)
}

func fillWith[T any](c *state, block []T, n int, device bool) (*input[T], error) {
	dev, err := alloc[T](c, n)
	if err != nil {
		return nil, err
	}
	op, f, ok := affineFill[T]()
	if !ok || !device {
		for lo := 0; lo < n; lo += len(block) {
			hi := min(lo+len(block), n)
			if err := dev.Range(lo, hi).CopyFromHost(block[:hi-lo]); err != nil {
				return nil, fmt.Errorf("fill: %w", err)
			}
		}
		return &input[T]{dev: dev, block: block, n: n}, nil
	}
	c.pkgs[rootPkg] = true
	blk, err := runtime.FromHost(c.d, block)
	if err != nil {
		return nil, fmt.Errorf("fill: %w", err)
	}
	for lo := 0; lo < n; lo += len(block) {
		hi := min(lo+len(block), n)
		if err := op.Run(nil, blk.Range(0, hi-lo), dev.Range(lo, hi)); err != nil {
			_ = blk.Free()
			return nil, fmt.Errorf("fill: %w", err)
		}
	}
	if err := c.d.DefaultStream().Synchronize(); err != nil {
		return nil, fmt.Errorf("fill: %w", err)
	}
	if err := blk.Free(); err != nil {
		return nil, fmt.Errorf("fill: %w", err)
	}
	out := make([]T, len(block))
	for i, x := range block {
		out[i] = f(x)
	}
	return &input[T]{dev: dev, block: out, n: n}, nil
}

// randomInput is a fresh input of n random elements of k.
func randomInput[T any](c *state, k kind[T], n int) (*input[T], error) {
	block := make([]T, min(n, blockLen))
	for i := range block {
		block[i] = k.gen(c.r)
	}
	return fill(c, block, n)
}

// runsInput is a fresh input of n elements of k in runs of equal elements
// (by eq) of 1 to maxRun, whose block begins and ends with different
// elements, so that runs never join across copies of the block. Run ids
// that fill maps to a different value (Affine is injective on them) stay
// distinct.
func runsInput[T any](c *state, k kind[T], n, maxRun int, eq func(a, b T) bool) (*input[T], error) {
	m := min(n, blockLen)
	block := make([]T, 0, m)
	id := int(c.r.IntN(1000))
	first := id
	for len(block) < m {
		l := min(1+c.r.IntN(maxRun), m-len(block))
		for range l {
			block = append(block, k.fromInt(id))
		}
		id++
	}
	if m > 1 && eq(block[m-1], block[0]) {
		// The last run's id is one past the previous run's, so it differs
		// from that one's and, being the first's plus one, from the first.
		block[m-1] = k.fromInt(first + 1)
		if eq(block[m-1], block[m-2]) || eq(block[m-1], block[0]) {
			block[m-1] = k.fromInt(id + 7)
		}
	}
	in, err := fill(c, block, n)
	if err != nil {
		return nil, err
	}
	if m > 1 && eq(in.block[m-1], in.block[0]) {
		return nil, fmt.Errorf("runs input: the block's first and last elements are equal after the fill")
	}
	return in, nil
}

// upload allocates a fresh buffer of n elements gen(0) … gen(n-1), made and
// uploaded a block at a time: for inputs that are not periodic (sorted data).
func upload[T any](c *state, n int, gen func(i int) T) (*runtime.Slice[T], error) {
	dev, err := alloc[T](c, n)
	if err != nil {
		return nil, err
	}
	buf := make([]T, min(n, blockLen))
	for lo := 0; lo < n; lo += len(buf) {
		hi := min(lo+len(buf), n)
		for i := lo; i < hi; i++ {
			buf[i-lo] = gen(i)
		}
		if err := dev.Range(lo, hi).CopyFromHost(buf[:hi-lo]); err != nil {
			return nil, fmt.Errorf("upload: %w", err)
		}
	}
	return dev, nil
}

// check reads windows of s[0:n] back (its start, its end and four at
// random) and compares every element with want(i).
func check[T any](c *state, what string, s *runtime.Slice[T], n int, want func(i int) T, eq func(a, b T) bool) error {
	if n == 0 {
		return nil
	}
	w := min(n, window)
	starts := []int{0, n - w}
	for range 4 {
		starts = append(starts, c.r.IntN(n-w+1))
	}
	for _, lo := range starts {
		got, err := s.Range(lo, lo+w).ToHost()
		if err != nil {
			return fmt.Errorf("%s: reading back [%d, %d): %w", what, lo, lo+w, err)
		}
		for j, g := range got {
			if x := want(lo + j); !eq(g, x) {
				return fmt.Errorf("%s: item %d of %d is %+v, want %+v", what, lo+j, n, g, x)
			}
		}
	}
	return nil
}

// checkCount compares count[k] with want.
func checkCount(what string, counts *runtime.Slice[int64], k int, want int64) error {
	got, err := counts.Range(k, k+1).ToHost()
	if err != nil {
		return fmt.Errorf("%s: reading back the count: %w", what, err)
	}
	if got[0] != want {
		return fmt.Errorf("%s: count %d, want %d", what, got[0], want)
	}
	return nil
}

// periodic is an output made of a list for each whole copy of the input's
// block and one for the cut copy: what compactions and run-wise algorithms
// of a periodic input write.
type periodic[T any] struct {
	full   []T // per whole copy
	rest   []T // of the cut copy
	copies int
	shift  func(x T, copy int) T // for offsets: x in copy number copy; nil when none
}

func (p periodic[T]) len() int { return p.copies*len(p.full) + len(p.rest) }

func (p periodic[T]) at(j int) T {
	if f := len(p.full); f > 0 && j < p.copies*f {
		x := p.full[j%f]
		if p.shift != nil {
			x = p.shift(x, j/f)
		}
		return x
	}
	x := p.rest[j-p.copies*len(p.full)]
	if p.shift != nil {
		x = p.shift(x, p.copies)
	}
	return x
}

// over returns the periodic output of f applied to the block and to its cut
// prefix.
func over[T, U any](in *input[T], f func(xs []T) []U) periodic[U] {
	return periodic[U]{full: f(in.block), rest: f(in.block[:in.rest()]), copies: in.full()}
}

// runStarts returns the start of every run of xs equal by eq.
func runStarts[T any](xs []T, eq func(a, b T) bool) []int {
	var s []int
	for i := range xs {
		if i == 0 || !eq(xs[i], xs[i-1]) {
			s = append(s, i)
		}
	}
	return s
}

// power is x op x op … op x, k ≥ 1 times, for an associative op.
func power[T any](op func(a, b T) T, x T, k int) T {
	acc, have := x, false
	var res T
	for ; k > 0; k >>= 1 {
		if k&1 == 1 {
			if have {
				res = op(res, acc)
			} else {
				res, have = acc, true
			}
		}
		acc = op(acc, acc)
	}
	return res
}

// fold is xs[0] op … op xs[len-1]; ok is false for an empty xs.
func fold[T any](op func(a, b T) T, xs []T) (acc T, ok bool) {
	for i, x := range xs {
		if i == 0 {
			acc = x
		} else {
			acc = op(acc, x)
		}
	}
	return acc, len(xs) > 0
}

// foldInput is the fold of the whole input, for an associative op.
func foldInput[T any](op func(a, b T) T, in *input[T]) T {
	acc := power(op, must(fold(op, in.block)), in.full())
	if r, ok := fold(op, in.block[:in.rest()]); ok {
		acc = op(acc, r)
	}
	return acc
}

// must drops fold's ok where the slice is known not to be empty.
func must[T any](x T, _ bool) T { return x }

// prefix returns the inclusive scan of the input at i, for an associative
// op, from the block's inclusive scan.
func prefix[T any](op func(a, b T) T, scan []T, i int) T {
	m := len(scan)
	if q := i / m; q > 0 {
		return op(power(op, scan[m-1], q), scan[i%m])
	}
	return scan[i]
}

// scanOf is the inclusive scan of xs.
func scanOf[T any](op func(a, b T) T, xs []T) []T {
	out := make([]T, len(xs))
	for i, x := range xs {
		if i == 0 {
			out[i] = x
		} else {
			out[i] = op(out[i-1], x)
		}
	}
	return out
}

// sortedOrder is where a stable sort of a periodic input puts each element:
// at(i) is the block offset of the element the sort writes to position i.
type sortedOrder struct {
	classes [][]int // the block offsets of each class of equal keys, in sorted order, each in block order
	cum     []int   // the position of each class's first element in the output
	copies  int
}

// sortOrder returns the order in which a stable sort by less (descending:
// of the reverse order, equal keys still in input order) writes a periodic
// input of keys.
func sortOrder[K any](in *input[K], less func(a, b K) bool, descending bool) sortedOrder {
	idx := make([]int, len(in.block))
	for i := range idx {
		idx[i] = i
	}
	key := func(a, b int) int {
		x, y := in.block[a], in.block[b]
		if descending {
			x, y = y, x
		}
		switch {
		case less(x, y):
			return -1
		case less(y, x):
			return 1
		}
		return 0
	}
	slices.SortStableFunc(idx, key)
	o := sortedOrder{copies: in.full()}
	rest := in.rest()
	pos := 0
	for i, x := range idx {
		if i == 0 || key(idx[i-1], x) != 0 {
			o.classes = append(o.classes, nil)
			o.cum = append(o.cum, pos)
		}
		c := len(o.classes) - 1
		o.classes[c] = append(o.classes[c], x)
		pos += o.copies
		if x < rest {
			pos++
		}
	}
	return o
}

// at returns the block offset of the element at position i of the sorted
// output.
func (o sortedOrder) at(i int) int {
	c, found := slices.BinarySearch(o.cum, i)
	if !found {
		c--
	}
	cl, t := o.classes[c], i-o.cum[c]
	if t < o.copies*len(cl) {
		return cl[t%len(cl)]
	}
	return cl[t-o.copies*len(cl)]
}

// segments partitions [0, m) into segments of 0 to maxLen elements, empty
// ones included, and one long one of m/4 (past a block's shared memory
// when m is large, so that segmented sorts take every path). It returns the
// offsets, 0 first and m last.
func segments(r *rand.Rand, m, maxLen int) []int {
	offs := []int{0}
	long, placed := m/4, m/4 == 0
	for pos := 0; pos < m; {
		l := r.IntN(maxLen + 1)
		if !placed && r.IntN(4) == 0 {
			l, placed = long, true
		}
		pos = min(m, pos+l)
		offs = append(offs, pos)
	}
	return offs
}

// exact is == for comparable types.
func exact[T comparable](a, b T) bool { return a == b }

// near reports whether two float64 sums of terms of magnitude scale agree to
// a relative 1e-9 of it; the order of a parallel sum is not Go's.
func near(a, b, scale float64) bool {
	return math.Abs(a-b) <= 1e-9*scale+1e-9*max(math.Abs(a), math.Abs(b))
}

// near32 is near for float32 sums.
func near32(a, b, scale float32) bool {
	return math.Abs(float64(a-b)) <= 1e-5*float64(scale)+1e-5*max(math.Abs(float64(a)), math.Abs(float64(b)))
}

// lessOrdered is < for ordered types.
func lessOrdered[T cmp.Ordered](a, b T) bool { return a < b }
