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
// No minimum blocks: the sweep takes 128 registers (CUB's kernel 80–112),
// and bounding it to CUB's occupancy spills 300–500 bytes. On the H200
// through Go, 8-byte values at 6 blocks an SM ran uint64 slower (137 and
// 1995 µs at 2^24 and 2^28 against 130 and 1889) and float64 faster (134
// and 1923 against 138 and 2016); 4-byte values at 3 blocks ran slower in
// bench/cub/tune/lookback_tune.cu (1406 against 1358 µs at 2^28;
// bench/NOTES.md, 2026-12-04 fifth session).
func reduceByKeyPolicy(size int64, a int) arch.Policy {
	switch {
	case size <= 4:
		return arch.Policy{Arch: a, BlockThreads: 256, ItemsPerThread: 18}
	case size <= 8:
		return arch.Policy{Arch: a, BlockThreads: 128, ItemsPerThread: 13}
	default:
		return arch.Policy{Arch: a, BlockThreads: 128, ItemsPerThread: int(max(1, 104/size))}
	}
}
