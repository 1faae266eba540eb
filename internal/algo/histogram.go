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

// multiHistogramChannels is the most interleaved channels of
// MultiHistogramEven / MultiHistogramRange: their kernels take this many
// histograms (those of inactive channels null).
const multiHistogramChannels = 4

// multiParams returns the parameters named prefix0..prefix3.
func multiParams(prefix string, p Param) []Param {
	ps := make([]Param, multiHistogramChannels)
	for i := range ps {
		ps[i] = p
		ps[i].Name = prefix + string(rune('0'+i))
	}
	return ps
}

// multiHistogramInit zeroes the active channels' counters (bins<c> > 0)
// before a multi-block sweep adds to them.
var multiHistogramInit = Kernel{Suffix: "init", Template: "::gocccl::multi_histogram_init", Params: concatParams(
	multiParams("d_hist", Param{Kind: Out, Type: "int32", Fixed: true}),
	multiParams("bins", Param{Kind: Size}))}

// multiHistogramHead is the parameters a multi-channel sweep starts with.
func multiHistogramHead() []Param {
	return concatParams(
		[]Param{{Name: "d_samples", Kind: In, Type: "T"}, {Name: "n", Kind: Size},
			{Name: "channels", Kind: Size}, {Name: "active", Kind: Size}},
		multiParams("d_hist", Param{Kind: Out, Type: "int32", Fixed: true}),
		multiParams("bins", Param{Kind: Size}))
}

func concatParams(lists ...[]Param) []Param {
	var ps []Param
	for _, l := range lists {
		ps = append(ps, l...)
	}
	return ps
}

// MultiHistogramEven is runtime.MultiHistogramEven[T](): samples of T
// interleaved in 1 to 4 channels (a run-time argument: the kernels dispatch
// on it), one histogram of equal-width bins per active channel, as
// cub::DeviceHistogram::MultiHistogramEven. Kernels as for HistogramEven,
// with four histograms (bins, levels, scales) of which the first `active`
// are used; the samples may be read through an iterator.
var MultiHistogramEven = register(&Algorithm{
	Name:       "MultiHistogramEven",
	Stem:       "multi_histogram_even",
	Header:     "histogram.cuh",
	TypeParams: []string{"T"},
	Kernels: []Kernel{
		{Suffix: "sweep", Template: "::gocccl::multi_histogram_even", Params: concatParams(multiHistogramHead(),
			multiParams("lower", Param{Kind: Value, Type: "T"}),
			multiParams("upper", Param{Kind: Value, Type: "T"}),
			multiParams("scale", Param{Kind: Value, Type: "float64"}))},
		multiHistogramInit,
	},
	Policy: histogramPolicy,
})

// MultiHistogramRange is runtime.MultiHistogramRange[T](): as
// MultiHistogramEven, with each active channel's bins between levels in a
// device buffer of its own (pointers; a block copies them to shared memory
// when all fit).
var MultiHistogramRange = register(&Algorithm{
	Name:       "MultiHistogramRange",
	Stem:       "multi_histogram_range",
	Header:     "histogram.cuh",
	TypeParams: []string{"T"},
	Kernels: []Kernel{
		{Suffix: "sweep", Template: "::gocccl::multi_histogram_range", Params: concatParams(multiHistogramHead(),
			multiParams("d_levels", Param{Kind: In, Type: "T", Fixed: true}))},
		multiHistogramInit,
	},
	Policy: histogramPolicy,
})
