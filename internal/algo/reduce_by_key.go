package algo

import "github.com/gocccl/gocccl/internal/arch"

// ReduceByKey is runtime.ReduceByKey(equal func(K, K) bool, op func(V, V)
// V): one unique key and one aggregate per run of equal consecutive keys,
// and the number of runs, in a single pass with decoupled look-back
// (kernels/include/gocccl/reduce_by_key.cuh). The init kernel readies the
// tile states: epoch tile states (look-back pairs of at most 16 bytes: V of
// up to 8) once per region of memory, CUB's before every multi-tile call;
// the sweep's epoch is the call's epoch over epoch tile states. The runtime
// skips the init, and passes no state, when the input is one tile.
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
			{Name: "d_state", Kind: Scratch}, {Name: "state_bytes", Kind: Size}, {Name: "epoch", Kind: Value, Type: "uint32"}}},
	},
	Policy: reduceByKeyPolicy,
})

// reduceByKeyPolicy follows cub::DeviceReduceByKey's sm_90 tuning by the
// widest of K and V: 256 threads × 18 items up to 4 bytes, 128 × 13 up to 8
// (CUB's 4-and-8-byte pairs), wider items as many as keep 104 bytes a
// thread. The 256 × 8 tile measured 1.7–1.9× CUB's time on the H200
// (bench/NOTES.md, 2026-12-01).
//
// Minimum blocks: 3 an SM up to 4 bytes, 6 up to 8. The sweep keeps its
// tile's scan in int counts and its head flags in bits (reduce_by_key.cuh),
// so the bound spills 20–52 bytes where the earlier sweep spilled 300–500.
// On an H100 (bench/cub/tune/bykey_ab_h100_2026-12-07.txt) that took float32
// values from 1.00×/1.04× CUB's time at 2^24/2^28 to 0.92×/0.94×, uint32
// from 0.95×/0.99× to 0.80×/0.80×, float64 from 1.05×/1.10× to 0.94×/0.96×
// and uint64 from 1.02×/1.06× to 0.92×/0.92×; at 2^20 uint32 runs 1.19×
// slower than unbounded (still 0.85× CUB).
func reduceByKeyPolicy(size int64, a int) arch.Policy {
	switch {
	case size <= 4:
		return arch.Policy{Arch: a, BlockThreads: 256, ItemsPerThread: 18, MinBlocks: 3}
	case size <= 8:
		return arch.Policy{Arch: a, BlockThreads: 128, ItemsPerThread: 13, MinBlocks: 6}
	default:
		return arch.Policy{Arch: a, BlockThreads: 128, ItemsPerThread: int(max(1, 104/size))}
	}
}
