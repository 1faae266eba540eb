package runtime

import (
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"unsafe"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/iter"
)

// HistogramSample is the sample types of HistogramEven, HistogramRange and
// their multi-channel forms (MultiHistogramEven, MultiHistogramRange):
// integers and floating-point numbers.
type HistogramSample interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~int |
		~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uint | ~uintptr |
		~float32 | ~float64
}

// HistogramEvenOp counts samples into bins of equal width, as
// cub::DeviceHistogram::HistogramEven does.
type HistogramEvenOp[T HistogramSample] struct {
	instance
}

// HistogramEven declares a histogram of T samples over evenly spaced bins.
// It takes no operator: name the sample type, as in
// runtime.HistogramEven[float32](), and gocccl-gen generates its kernels.
func HistogramEven[T HistogramSample]() *HistogramEvenOp[T] {
	return &HistogramEvenOp[T]{instance: newInstance(algo.HistogramEven, nil, reflect.TypeFor[T]())}
}

// Over declares the instance reading its samples through the iterator
// composition samples (package iterator), so that gocccl-gen compiles it;
// call it on the constructor's result where the instance is declared:
//
//	var Ramp = runtime.HistogramEven[float32]().Over(iterator.Transform(iterator.Counting[int32](), ToFloat))
//
// It returns h: any HistogramEven[T]() instance then runs the composition.
func (h *HistogramEvenOp[T]) Over(samples Iterator[T]) *HistogramEvenOp[T] { return h }

// Run counts samples into hist[0:numBins], overwriting it: bin i counts the
// samples x with lower <= x < upper whose bin is i. Other samples, NaN
// among them, are not counted.
//
// For integer T a sample's bin is exactly
// floor((x-lower) * numBins / (upper-lower)), computed without overflow for
// every T. For floating-point T it is int((x-lower) * scale), each operation
// rounded to T, with scale = T(numBins) / (upper-lower) (clamped to
// numBins-1 where rounding reaches numBins), as CUB computes it.
//
// Counters are int32, as CUB's usual counters are, and wrap past
// math.MaxInt32. Errors: numBins < 1 or larger than hist, lower >= upper,
// levels that are not finite or whose difference overflows T; all before
// anything is enqueued. samples is a Slice or an iterator composition bound
// for the call that an instance declared with Over. Run is enqueued on s
// (nil means the default stream of samples' device).
func (h *HistogramEvenOp[T]) Run(s *Stream, samples Input[T], hist *Slice[int32], numBins int, lower, upper T) error {
	if h == nil || h.key.Alg == nil {
		return fmt.Errorf("gocccl: HistogramEven: not declared with runtime.HistogramEven")
	}
	src, s, err := histogramCheck(&h.instance, s, samples, hist, numBins)
	if err != nil {
		return err
	}
	e, err := newEvenBinner(numBins, lower, upper)
	if err != nil {
		return h.errorf("%v", err)
	}
	if err := h.enterThrough(s.dev, []*iter.Node{src.node()}, nil); err != nil {
		return h.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		hs, err := src.host(s.dev)
		if err != nil {
			return h.wrap(err, "")
		}
		b := e // the CPU backend's binner, on the heap through its method value
		return h.wrap(histogramCPU(hs.host, hist.host[:numBins], s.dev.info.Workers, b.bin), "")
	}
	var args cuda.Args
	k, grid, err := histogramGPU(&h.instance, s, src, hist, numBins, &args)
	if err != nil {
		return err
	}
	size, align := int(unsafe.Sizeof(lower)), int(unsafe.Alignof(lower))
	args.Value(unsafe.Pointer(&lower), size, align)
	args.Value(unsafe.Pointer(&upper), size, align)
	args.Float64(e.kernelScale())
	return k.launch(histogramSweep, grid, s, &args)
}

// TempStorageBytes returns the device scratch memory a Run takes: none.
func (h *HistogramEvenOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if h == nil || h.key.Alg == nil {
		return 0, fmt.Errorf("gocccl: HistogramEven: not declared with runtime.HistogramEven")
	}
	return histogramTemp(d, n)
}

func histogramTemp(d *Device, n int) (int, error) {
	if n < 0 {
		return 0, fmt.Errorf("gocccl: histogram: negative length %d", n)
	}
	if err := d.enter(); err != nil {
		return 0, fmt.Errorf("gocccl: histogram: %w", err)
	}
	d.exit()
	return 0, nil
}

// histogramCheck checks the arguments every histogram takes and resolves
// its samples.
func histogramCheck[T any](in *instance, s *Stream, samples Input[T], hist *Slice[int32], numBins int) (src[T], *Stream, error) {
	x, err := inputAs(in, "samples", samples)
	if err != nil {
		return x, nil, err
	}
	if err := hist.usableAs(in.name(), "histogram"); err != nil {
		return x, nil, err
	}
	s, err = streamFor(in.name(), s, x.dev(), hist.dev)
	if err != nil {
		return x, nil, err
	}
	if numBins < 1 || numBins > math.MaxInt32 {
		return x, nil, in.errorf("%d bins: want 1 to %d", numBins, math.MaxInt32)
	}
	if hist.n < numBins {
		return x, nil, in.errorf("histogram has %d elements, %d bins need as many", hist.n, numBins)
	}
	return x, s, nil
}

// inputAs is input for an input in a role of an instance ("samples"): a
// Slice is checked without building the message unless it is unusable.
func inputAs[T any](in *instance, role string, x Input[T]) (src[T], error) {
	if s, ok := x.(*Slice[T]); ok {
		return src[T]{s: s}, s.usableAs(in.name(), role)
	}
	return input(in.name()+" "+role, x)
}

// histogramSweep and histogramZero are the kernels of a histogram, by their
// suffix in the descriptions (HistogramEven's and HistogramRange's alike).
var (
	histogramSweep = kernelIndex("sweep", algo.HistogramEven, algo.HistogramRange, algo.MultiHistogramEven, algo.MultiHistogramRange)
	histogramZero  = kernelIndex("init", algo.HistogramEven, algo.HistogramRange, algo.MultiHistogramEven, algo.MultiHistogramRange)
)

// histogramGPU prepares a histogram's launch: one sweep block for one tile
// of samples, else the zeroing kernel (launched here) and a one-wave
// grid-stride sweep. It packs the sweep's parameters up to bins into args;
// the caller packs its own after them and launches histogramSweep on the
// returned kernels and grid. (args is the caller's, and no function value
// receives it, so that it stays on the caller's stack: a plain call makes
// no allocation.)
func histogramGPU[T any](in *instance, s *Stream, samples src[T], hist *Slice[int32], numBins int, args *cuda.Args) (kernels, int, error) {
	k, err := in.kernelsThrough(s.dev, []*iter.Node{samples.node()}, nil)
	if err != nil {
		return kernels{}, 0, err
	}
	tile := k.policy.Tile()
	grid := 1
	n := samples.len()
	if n > tile {
		grid = min((n+tile-1)/tile, k.resident)
	}
	args.Reset()
	if grid > 1 {
		args.Ptr(hist.ptr)
		args.Int64(int64(numBins))
		if err := k.launch(histogramZero, min((numBins+k.policy.BlockThreads-1)/k.policy.BlockThreads, 1024), s, args); err != nil {
			return kernels{}, 0, err
		}
		args.Reset()
	}
	if err := samples.pack(args); err != nil {
		return kernels{}, 0, in.wrap(err, "")
	}
	args.Int64(int64(n))
	args.Ptr(hist.ptr)
	args.Int64(int64(numBins))
	return k, grid, nil
}

// evenBinner maps samples to bins of equal width; see HistogramEvenOp.Run.
type evenBinner[T HistogramSample] struct {
	lower, upper T
	bins         int
	float        bool
	fscale       T       // floating-point T: T(bins) / (upper - lower)
	rng          uint64  // integer T: upper - lower
	mask         uint64  // integer T: the bits of T's width
	wide         bool    // integer T of 8 bytes: 128-bit products
	estimate     float64 // integer T: bins / range, the kernel's estimate
}

// newEvenBinner checks the levels of a HistogramEven call and returns its
// binner, as a value, so that a GPU call, which reads only kernelScale,
// keeps it on its stack (a plain call makes no allocation).
func newEvenBinner[T HistogramSample](bins int, lower, upper T) (evenBinner[T], error) {
	e := evenBinner[T]{lower: lower, upper: upper, bins: bins}
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Float32, reflect.Float64:
		e.float = true
		lo, up := float64(lower), float64(upper)
		if math.IsNaN(lo) || math.IsNaN(up) || math.IsInf(lo, 0) || math.IsInf(up, 0) {
			return evenBinner[T]{}, fmt.Errorf("levels %v and %v: want finite levels", lower, upper)
		}
	}
	if !(lower < upper) {
		return evenBinner[T]{}, fmt.Errorf("lower level %v is not below upper level %v", lower, upper)
	}
	if e.float {
		width := T(upper - lower)
		e.fscale = T(T(bins) / width)
		if math.IsInf(float64(width), 0) || math.IsInf(float64(e.fscale), 0) || e.fscale == 0 {
			return evenBinner[T]{}, fmt.Errorf("levels %v and %v with %d bins: the bin width does not fit the sample type", lower, upper, bins)
		}
		return e, nil
	}
	size := uint(unsafe.Sizeof(lower))
	e.wide = size == 8
	e.mask = math.MaxUint64
	if !e.wide {
		e.mask = 1<<(8*size) - 1
	}
	e.rng = uint64(upper-lower) & e.mask
	e.estimate = float64(bins) / float64(e.rng)
	return e, nil
}

// kernelScale is the sweep kernel's scale parameter.
func (e *evenBinner[T]) kernelScale() float64 {
	if e.float {
		return float64(e.fscale)
	}
	return e.estimate
}

// bin returns the bin of x, or -1 when x is not counted.
func (e *evenBinner[T]) bin(x T) int {
	if !(x >= e.lower && x < e.upper) {
		return -1
	}
	if e.float {
		f := T(T(x-e.lower) * e.fscale)
		b := e.bins - 1
		if f < T(e.bins) {
			b = int(f)
		}
		return min(b, e.bins-1)
	}
	d := uint64(x-e.lower) & e.mask
	if !e.wide {
		return int(d * uint64(e.bins) / e.rng)
	}
	hi, lo := bits.Mul64(d, uint64(e.bins))
	q, _ := bits.Div64(hi, lo, e.rng)
	return int(q)
}
