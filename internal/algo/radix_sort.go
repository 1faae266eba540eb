package algo

import "github.com/gocccl/gocccl/internal/arch"

// The radix sorts are Onesweep (Adinets & Merrill 2022), as CUB's
// DeviceRadixSort runs it: one histogram kernel counts the digits of every
// pass, then one chained-scan kernel per 8-bit digit pass ranks each tile,
// looks back over the earlier tiles' digit counts (decoupled look-back) and
// scatters (one launch per pass and portion of at most 2^29 - 1 items);
// inputs of at most one tile are sorted by a single block
// (kernels/include/gocccl/radix_sort.cuh). Keys are 1, 2, 4 or 8 bytes;
// values of pairs move as raw bytes. The order, the bit window
// [begin_bit, end_bit) and the direction are run-time arguments.

// radixKernels returns the entry points of a radix sort: with values when
// pairs. The key parameters come first, then the values, then the rest.
func radixKernels(pairs bool) []Kernel {
	stem := "::gocccl::radix_sort_keys_"
	data := []Param{{Name: "d_keys_in", Kind: In, Type: "K"}, {Name: "d_keys_out", Kind: Out, Type: "K"}}
	if pairs {
		stem = "::gocccl::radix_sort_pairs_"
		data = append(data, Param{Name: "d_values_in", Kind: In, Type: "V"}, Param{Name: "d_values_out", Kind: Out, Type: "V"})
	}
	window := []Param{{Name: "begin_bit", Kind: Size}, {Name: "end_bit", Kind: Size}, {Name: "descending", Kind: Value, Type: "bool"}}
	cat := func(ps ...[]Param) []Param {
		var out []Param
		for _, p := range ps {
			out = append(out, p...)
		}
		return out
	}
	return []Kernel{
		{Suffix: "init", Template: "::gocccl::radix_sort_init", Params: []Param{
			{Name: "d_scratch", Kind: Scratch}, {Name: "words", Kind: Size}}},
		{Suffix: "histogram", Template: "::gocccl::radix_sort_histogram", Params: cat(
			[]Param{{Name: "d_keys_in", Kind: In, Type: "K"}, {Name: "n", Kind: Size}, {Name: "d_scratch", Kind: Scratch}}, window)},
		{Suffix: "onesweep", Template: stem + "onesweep", Params: cat(data,
			[]Param{{Name: "n", Kind: Size}, {Name: "d_scratch", Kind: Scratch}, {Name: "pass", Kind: Size}}, window)},
		{Suffix: "single", Template: stem + "single", Params: cat(data, []Param{{Name: "n", Kind: Size}}, window)},
	}
}

// RadixKeysPolicy is the tuning of keys-only radix sorts of size-byte keys
// on sm_70+ (after CUB's sm_90 Onesweep policy: 384 threads, 20 items of 4
// bytes, 15 of 8; 512 threads and 19 items of 1 or 2 bytes). Every kernel of
// the sort (histogram, onesweep, single tile) runs with the same block size.
//
// On sm_90, 4- and 8-byte keys ask for 3 blocks per multiprocessor (56
// registers; 80 without, i.e. 2 blocks of 384): the H200 sweep of
// 2026-12-01 (bench/cub/tune/radix_tune_h200_2026-12-01.tsv) found it the
// fastest for both at 2^24 and 2^28 (1.80x against 1.92x CUB for uint32 at
// 2^28, 1.31x against 1.50x for uint64), with the match.any ranking;
// re-time with the ballot ranking (bench/NOTES.md, "Radix onesweep against
// CUB 3.0"). Other GPUs have not been timed: no minimum there.
func RadixKeysPolicy(size int64, a int) arch.Policy {
	minBlocks := 0
	if a >= 90 {
		minBlocks = 3
	}
	switch {
	case size <= 2:
		return arch.Policy{Arch: a, BlockThreads: 512, ItemsPerThread: 19}
	case size <= 4:
		return arch.Policy{Arch: a, BlockThreads: 384, ItemsPerThread: 20, MinBlocks: minBlocks}
	default:
		return arch.Policy{Arch: a, BlockThreads: 384, ItemsPerThread: 15, MinBlocks: minBlocks}
	}
}

// RadixPairsPolicy is the tuning of key-value radix sorts whose widest type
// (key or value) has size bytes: as CUB's sm_90 policy up to 8 bytes; wider
// values take 256 threads and as many items per thread (at most 16) as keep
// a tile's value exchange (plus a 4-byte index per item) within 36 KiB of
// shared memory, scattering values straight from registers when one item
// per thread is still too much.
//
// The 384-thread pairs kernels ask for at least 2 blocks per multiprocessor:
// without a bound ptxas gives the onesweep kernel 84 or 85 registers (uint32
// pairs at 384 x 18, 8-byte pairs at 384 x 15, CUDA 13), 88 once allocated,
// so one block of 384 per multiprocessor; 2 blocks cap it at 80 with no
// spills (CUB's pairs kernel has 80). On sm_90 4-byte pairs ask for 3 (56
// registers, a few spills), the fastest of the H200 sweep of 2026-12-01:
// 1.23x CUB at 2^28 against 1.98x with one block (match.any ranking).
func RadixPairsPolicy(size int64, a int) arch.Policy {
	minBlocks := 2
	if a >= 90 {
		minBlocks = 3
	}
	switch {
	case size <= 2:
		return arch.Policy{Arch: a, BlockThreads: 512, ItemsPerThread: 17}
	case size <= 4:
		return arch.Policy{Arch: a, BlockThreads: 384, ItemsPerThread: 18, MinBlocks: minBlocks}
	case size <= 8:
		return arch.Policy{Arch: a, BlockThreads: 384, ItemsPerThread: 15, MinBlocks: 2}
	default:
		return arch.Policy{Arch: a, BlockThreads: 256, ItemsPerThread: int(min(16, max(1, 36864/(256*(size+4)))))}
	}
}

// RadixPolicy is RadixPairsPolicy (kept for callers that tune both alike).
func RadixPolicy(size int64, a int) arch.Policy { return RadixPairsPolicy(size, a) }

// RadixSortKeys is runtime.RadixSortKeys[K]().
var RadixSortKeys = register(&Algorithm{
	Name:       "RadixSortKeys",
	Stem:       "radix_sort_keys",
	Header:     "radix_sort.cuh",
	TypeParams: []string{"K"},
	Kernels:    radixKernels(false),
	Policy:     RadixKeysPolicy,
})

// RadixSortPairs is runtime.RadixSortPairs[K, V]().
var RadixSortPairs = register(&Algorithm{
	Name:       "RadixSortPairs",
	Stem:       "radix_sort_pairs",
	Header:     "radix_sort.cuh",
	TypeParams: []string{"K", "V"},
	Kernels:    radixKernels(true),
	Policy:     RadixPairsPolicy,
})
