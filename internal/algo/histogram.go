package algo

import "github.com/gocccl/gocccl/internal/arch"

// histogramPolicy keeps 64 bytes of samples in flight per thread, as Reduce
// does: 16 four-byte samples, read as 16-byte chunks.
func histogramPolicy(size int64, a int) arch.Policy { return arch.MemBound(size, 64, a) }

// histogramInit zeroes the counters before a multi-block sweep adds to them.
// The counters stay a pointer (Fixed): the sweep adds to them atomically.
var histogramInit = Kernel{Suffix: "init", Template: "::gocccl::histogram_init", Params: []Param{
	{Name: "d_hist", Kind: Out, Type: "int32", Fixed: true}, {Name: "bins", Kind: Size}}}

// HistogramEven is runtime.HistogramEven[T](): counts samples of T into
// bins of equal width between a lower (inclusive) and an upper (exclusive)
// level (kernels/include/gocccl/histogram.cuh). Kernel 0 is the sweep
// (per-block privatized shared-memory counters added atomically to the
// output, or written directly by a grid of one block); kernel 1 zeroes the
// output before a sweep of several blocks. The samples may be read through
// an iterator (runtime's Over).
var HistogramEven = register(&Algorithm{
	Name:       "HistogramEven",
	Stem:       "histogram_even",
	Header:     "histogram.cuh",
	TypeParams: []string{"T"},
	Kernels: []Kernel{
		{Suffix: "sweep", Template: "::gocccl::histogram_even", Params: []Param{
			{Name: "d_samples", Kind: In, Type: "T"}, {Name: "n", Kind: Size},
			{Name: "d_hist", Kind: Out, Type: "int32", Fixed: true}, {Name: "bins", Kind: Size},
			{Name: "lower", Kind: Value, Type: "T"}, {Name: "upper", Kind: Value, Type: "T"},
			{Name: "scale", Kind: Value, Type: "float64"}}},
		histogramInit,
	},
	Policy: histogramPolicy,
})

// HistogramRange is runtime.HistogramRange[T](): counts samples of T into
// bins whose boundaries are given in a device buffer of levels; a sample's
// bin is found by binary search. Kernels as for HistogramEven; the samples
// may be read through an iterator, the levels stay a pointer (a block copies
// them to shared memory).
var HistogramRange = register(&Algorithm{
	Name:       "HistogramRange",
	Stem:       "histogram_range",
	Header:     "histogram.cuh",
	TypeParams: []string{"T"},
	Kernels: []Kernel{
		{Suffix: "sweep", Template: "::gocccl::histogram_range", Params: []Param{
			{Name: "d_samples", Kind: In, Type: "T"}, {Name: "n", Kind: Size},
			{Name: "d_hist", Kind: Out, Type: "int32", Fixed: true}, {Name: "bins", Kind: Size},
			{Name: "d_levels", Kind: In, Type: "T", Fixed: true}}},
		histogramInit,
	},
	Policy: histogramPolicy,
})
