package algo

// Unique is runtime.Unique(eq func(T, T) bool): the first item of every run
// of consecutive items equal under eq, and their number.
var Unique = register(&Algorithm{
	Name:       "Unique",
	Stem:       "unique",
	Header:     "select.cuh",
	TypeParams: []string{"T"},
	Ops:        []Operator{{Role: "equality", Params: []string{"T", "T"}, Results: []string{"bool"}}},
	Kernels: []Kernel{
		selectInit("::gocccl::select_init"),
		sweep("::gocccl::unique", Param{Name: "d_in", Kind: In, Type: "T"}, Param{Name: "d_out", Kind: Out, Type: "T"},
			Param{Name: "d_count", Kind: Out, Type: "int64", Count: true}),
	},
	Policy: compactPolicy,
})

// UniqueByKey is runtime.UniqueByKey[K, V](eq func(K, K) bool): the first
// key of every run of consecutive keys equal under eq with the value at its
// position, and their number. V is named by no operator, so instances name
// both types.
var UniqueByKey = register(&Algorithm{
	Name:       "UniqueByKey",
	Stem:       "unique_by_key",
	Header:     "select.cuh",
	TypeParams: []string{"K", "V"},
	Ops:        []Operator{{Role: "equality", Params: []string{"K", "K"}, Results: []string{"bool"}}},
	Kernels: []Kernel{
		selectInit("::gocccl::select_init"),
		sweep("::gocccl::unique_by_key",
			Param{Name: "d_keys", Kind: In, Type: "K"}, Param{Name: "d_values", Kind: In, Type: "V"},
			Param{Name: "d_keys_out", Kind: Out, Type: "K"}, Param{Name: "d_values_out", Kind: Out, Type: "V"},
			Param{Name: "d_count", Kind: Out, Type: "int64", Count: true}),
	},
	Policy: uniqueByKeyPolicy,
})
