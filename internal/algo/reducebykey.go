package algo

import "github.com/gocccl/gocccl/internal/arch"

// ReduceByKey is runtime.ReduceByKey(equal func(K, K) bool, op func(V, V)
// V): one unique key and one aggregate per run of equal consecutive keys,
// and the number of runs, in a single pass with decoupled look-back
// (kernels/include/gocccl/reduce_by_key.cuh).
var ReduceByKey = register(&Algorithm{
	Name:       "ReduceByKey",
	Stem:       "reduce_by_key",
	Header:     "reduce_by_key.cuh",
	TypeParams: []string{"K", "V"},
	Ops: []Operator{
		{Role: "equality", Params: []string{"K", "K"}, Results: []string{"bool"}},
		{Role: "operator", Params: []string{"V", "V"}, Results: []string{"V"}},
	},
	Kernels: []Kernel{
		{Suffix: "init", Template: "::gocccl::reduce_by_key_init", Params: []Param{
			{Name: "d_state", Kind: Scratch}, {Name: "state_bytes", Kind: Size}, {Name: "num_tiles", Kind: Size}}},
		{Suffix: "sweep", Template: "::gocccl::reduce_by_key", Params: []Param{
			{Name: "d_keys", Kind: In, Type: "K"}, {Name: "d_values", Kind: In, Type: "V"},
			{Name: "d_unique", Kind: Out, Type: "K"}, {Name: "d_aggs", Kind: Out, Type: "V"},
			{Name: "d_num_runs", Kind: Out, Type: "int64"}, {Name: "n", Kind: Size},
			{Name: "d_state", Kind: Scratch}, {Name: "state_bytes", Kind: Size}}},
	},
	// 32 bytes of the widest of K and V per thread: 8 items of 4 bytes
	// (keys and values held in registers together, blocked for the scan).
	Policy: func(size int64, a int) arch.Policy { return arch.MemBound(size, 32, a) },
})
