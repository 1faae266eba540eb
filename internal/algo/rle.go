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
		sweep("::gocccl::rle_encode", Param{Name: "d_in", Kind: In, Type: "T"},
			Param{Name: "d_unique", Kind: Out, Type: "T"}, Param{Name: "d_lengths", Kind: Out, Type: "int64"},
			Param{Name: "d_count", Kind: Out, Type: "int64"}),
		{Suffix: "nontrivial", Template: "::gocccl::rle_non_trivial", Params: append([]Param{
			{Name: "d_in", Kind: In, Type: "T"}, {Name: "d_offsets", Kind: Out, Type: "int64"},
			{Name: "d_lengths", Kind: Out, Type: "int64"}, {Name: "d_count", Kind: Out, Type: "int64"}}, sweepTail...)},
	},
	Policy: rlePolicy,
})

// rlePolicy is selectPolicy but for 4-byte items on sm_90 and newer, which
// take CUB 3.0's sm_90 Encode tile, 256 threads × 13 items:
// bench/cub/tune/rle_tune.cu timed it the fastest of five shapes on the H200
// at 2^24 and 2^28 (uint32 and float32: 93.7–94.6 µs and 1269–1276 µs,
// against 97.7–100.6 and 1350–1357 at 128 × 16, and CUB's Encode with the
// same int64 lengths at 99.9–102 and 1396–1408; bench/NOTES.md, 2026-12-02).
func rlePolicy(size int64, a int) arch.Policy {
	if a >= 90 && size == 4 {
		return arch.Policy{Arch: a, BlockThreads: 256, ItemsPerThread: 13}
	}
	return selectPolicy(size, a)
}
