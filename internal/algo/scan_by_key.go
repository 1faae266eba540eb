package algo

import "github.com/gocccl/gocccl/internal/arch"

// scanByKeyOps are the operators of the scans by key: an equality of keys
// that ends a segment where it is false, and the scan operator of values.
var scanByKeyOps = []Operator{
	{Role: "equality", Params: []string{"K", "K"}, Results: []string{"bool"}},
	{Role: "operator", Params: []string{"V", "V"}, Results: []string{"V"}},
}

// scanByKeySweep is the single pass of a scan by key over keys and values
// (kernels/include/gocccl/scan_by_key.cuh), with extra trailing params;
// epoch is the call's epoch over epoch tile states.
func scanByKeySweep(template string, extra ...Param) Kernel {
	return Kernel{Suffix: "sweep", Template: template, Params: append([]Param{
		{Name: "d_keys", Kind: In, Type: "K"}, {Name: "d_values", Kind: In, Type: "V"}, {Name: "d_out", Kind: Out, Type: "V"},
		{Name: "n", Kind: Size}, {Name: "d_state", Kind: Scratch}, {Name: "state_bytes", Kind: Size},
		{Name: "epoch", Kind: Value, Type: "uint32"}}, extra...), Delay: true}
}

// scanByKeyInit readies the look-back's tile states: epoch tile states
// (look-back pairs of at most 16 bytes; see
// kernels/include/gocccl/epoch_tile_state.cuh) once per region of memory,
// CUB's before every multi-tile call (it marks them invalid). The runtime
// skips it, and passes no state, when the input is one tile.
func scanByKeyInit() Kernel {
	return Kernel{Suffix: "init", Template: "::gocccl::scan_by_key_init", Params: []Param{
		{Name: "d_state", Kind: Scratch}, {Name: "state_bytes", Kind: Size}, {Name: "num_tiles", Kind: Size}}}
}

// InclusiveScanByKey is runtime.InclusiveScanByKey(eq func(K, K) bool, op
// func(V, V) V): an inclusive scan of values that restarts wherever
// eq(keys[i-1], keys[i]) is false (cub::DeviceScan::InclusiveScanByKey).
var InclusiveScanByKey = register(&Algorithm{
	Name:       "InclusiveScanByKey",
	Stem:       "inclusive_scan_by_key",
	Header:     "scan_by_key.cuh",
	TypeParams: []string{"K", "V"},
	Ops:        scanByKeyOps,
	Kernels:    []Kernel{scanByKeyInit(), scanByKeySweep("::gocccl::inclusive_scan_by_key")},
	Policy:     scanByKeyPolicy,
})

// ExclusiveScanByKey is runtime.ExclusiveScanByKey(eq, op): an exclusive
// scan of values seeded with init at the start of every segment
// (cub::DeviceScan::ExclusiveScanByKey).
var ExclusiveScanByKey = register(&Algorithm{
	Name:       "ExclusiveScanByKey",
	Stem:       "exclusive_scan_by_key",
	Header:     "scan_by_key.cuh",
	TypeParams: []string{"K", "V"},
	Ops:        scanByKeyOps,
	Kernels: []Kernel{scanByKeyInit(), scanByKeySweep("::gocccl::exclusive_scan_by_key",
		Param{Name: "init", Kind: Value, Type: "V"})},
	Policy: scanByKeyPolicy,
})

// scanByKeyPolicy is CUB's scan-by-key tuning for sm_52 and later
// (dispatch_scan_by_key.cuh, Policy520): 256 threads, 9 items when the
// widest of key and value is at most 8 bytes, fewer for wider ones
// (Nominal4BItemsToItemsCombined of 9 over a key and a value that wide),
// with CUB's default look-back waits. On sm_90 and newer, CUB 3.0's sm_90
// tunings (tuning_scan_by_key.cuh; cub::AgentScanByKeyPolicy takes them
// unscaled):
//
//   - 4 bytes (4-byte keys and values): 288 × 14, CUB's default waits.
//     bench/cub/tune/lookback_tune.cu timed it on the H200 at 2^24 and 2^28
//     in 79.6–79.8 and 1062–1071 µs against 89.5–90.2 and 1232–1242 at
//     256 × 9 and CUB's 83.2–83.3 and 1059 (the tuning's FixedDelay<700,
//     1005> took 81.8–83.0 and 1059–1065; bench/NOTES.md, 2026-12-02).
//   - 8 bytes: the tuning of 4-byte keys and 8-byte values, 224 × 14 with
//     FixedDelay<556, 1195>, at 4 blocks an SM (72 registers; 80 unbounded,
//     3 blocks). lookback_tune (uint64 values, uint32 keys, H200) timed
//     114.3 and 1583 µs at 2^24 and 2^28 against 127.5 and 1844 at 256 × 9,
//     149.9 and 2191 unbounded, and CUB's 110.8 and 1437 (bench/NOTES.md,
//     2026-12-04 fifth session). The size is the widest type's, so 8-byte
//     keys take it too (CUB: 224 × 11 over 8-byte values, 192 × 10 over
//     4-byte ones); the tile's storage is a union of the key and value
//     exchanges, 25 KiB for 8-byte keys and values.
func scanByKeyPolicy(size int64, a int) arch.Policy {
	if a >= 90 {
		switch size {
		case 4:
			return arch.Policy{Arch: a, BlockThreads: 288, ItemsPerThread: 14}
		case 8:
			return arch.Policy{Arch: a, BlockThreads: 224, ItemsPerThread: 14, MinBlocks: 4, Delay: arch.Fixed(556, 1195)}
		}
	}
	items := 9
	if size > 8 {
		items = int(max(1, min(9, 9*8/(2*size))))
	}
	return arch.Policy{Arch: a, BlockThreads: 256, ItemsPerThread: items}
}
