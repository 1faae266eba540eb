package algo

// RunLengthEncode is runtime.RunLengthEncode(eq func(T, T) bool): for every
// run of consecutive items equal under eq, its first item and its length
// (kernel "sweep"), or for the runs longer than one item their offsets and
// lengths (kernel "nontrivial"), and the number of runs written.
var RunLengthEncode = register(&Algorithm{
	Name:       "RunLengthEncode",
	Stem:       "rle",
	Header:     "select.cuh",
	TypeParams: []string{"T"},
	Ops:        []Operator{{Role: "equality", Params: []string{"T", "T"}, Results: []string{"bool"}}},
	Kernels: []Kernel{
		selectInit("::gocccl::select_init_pair"),
		sweep("::gocccl::rle_encode", Param{Name: "d_in", Kind: In, Type: "T"},
			Param{Name: "d_unique", Kind: Out, Type: "T"}, Param{Name: "d_lengths", Kind: Out, Type: "int64"},
			Param{Name: "d_count", Kind: Out, Type: "int64"}),
		{Suffix: "nontrivial", Template: "::gocccl::rle_non_trivial", Params: append([]Param{
			{Name: "d_in", Kind: In, Type: "T"}, {Name: "d_offsets", Kind: Out, Type: "int64"},
			{Name: "d_lengths", Kind: Out, Type: "int64"}, {Name: "d_count", Kind: Out, Type: "int64"}}, sweepTail...)},
	},
	Policy: selectPolicy,
})
