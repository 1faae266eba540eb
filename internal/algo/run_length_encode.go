package algo

import "github.com/gocccl/gocccl/internal/arch"

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
		withDelay(sweep("::gocccl::rle_encode", Param{Name: "d_in", Kind: In, Type: "T"},
			Param{Name: "d_unique", Kind: Out, Type: "T"}, Param{Name: "d_lengths", Kind: Out, Type: "int64"},
			Param{Name: "d_count", Kind: Out, Type: "int64"})),
		{Suffix: "nontrivial", Template: "::gocccl::rle_non_trivial", Params: append([]Param{
			{Name: "d_in", Kind: In, Type: "T"}, {Name: "d_offsets", Kind: Out, Type: "int64"},
			{Name: "d_lengths", Kind: Out, Type: "int64"}, {Name: "d_count", Kind: Out, Type: "int64"}}, sweepTail...)},
	},
	Policy: rlePolicy,
})

// rlePolicy is selectPolicy but for 4-byte items on sm_90 and newer, which
// take CUB 3.0's sm_90 Encode tuning, 192 threads × 14 items with
// FixedDelay<284, 480>, compiled for at least 5 blocks a multiprocessor
// (64 registers a thread, as CUB's Encode: a few bytes spill).
// bench/cub/tune/rle_tune.cu timed the heads-only encode on the H200 at
// 2^24 and 2^28 (uint32 and float32) in 72.8–73.5 and 963–975 µs, against
// 85.5–86.1 and 1173–1177 without the minimum of blocks (95 registers),
// 91.4–92.8 and 1252 for the encode from heads and tails at 256 × 13, and
// CUB's Encode with the same int64 lengths at 98.0–98.8 and 1379–1389
// (bench/NOTES.md, 2026-12-02). The non-trivial runs kernel shares the
// policy.
func rlePolicy(size int64, a int) arch.Policy {
	if a >= 90 && size == 4 {
		return arch.Policy{Arch: a, BlockThreads: 192, ItemsPerThread: 14, MinBlocks: 5, Delay: arch.Fixed(284, 480)}
	}
	return selectPolicy(size, a)
}

// withDelay marks k as taking the policy's look-back waits.
func withDelay(k Kernel) Kernel {
	k.Delay = true
	return k
}
