package algo

import "github.com/gocccl/gocccl/internal/arch"

// selectPolicy is the tuning of every compaction in select.cuh: 128 threads
// with about 64 bytes of the widest element type per thread per tile, between
// 1 and 16 items (4-byte items: 16, a tile of 2048). More items for small
// types cost registers (a flag and a rank per item) and occupancy.
func selectPolicy(size int64, a int) arch.Policy {
	size = max(size, 1)
	return arch.Policy{Arch: a, BlockThreads: 128, ItemsPerThread: int(min(16, max(1, 64/size)))}
}

// compactPolicy is selectPolicy but for 4-byte items on sm_90 and newer,
// which take CUB 3.0's sm_90 tile of select_if (tuning_select_if.cuh,
// sm90_tuning: not flagged, rejects not kept, 4-byte primitive items; CUB
// runs it for cub::DeviceSelect::If and DeviceSelect::Unique), 384 threads
// × 17 items: bench/cub/tune/select_tune.cu timed select_if at 0.94–1.00×
// CUB at 2^24 and 2^28 against 1.06–1.27× at 128 × 16, and still ahead of
// CUB at 2^16 and 2^20 (the H200 run of 2026-12-01, bench/NOTES.md). It
// serves the compactions of one array (Select, Unique; Partition adds its
// waits, partitionPolicy); those that stage two arrays or three outputs have
// their own (threeWayPolicy, uniqueByKeyPolicy).
//
// The look-back waits stay CUB's default: its tuning's FixedDelay<76, 1150>
// timed no faster for select (uint32 605 against 604 µs at 2^28, 48.2
// against 47.0 at 2^24) and slower for unique (561 against 543 µs at 2^28)
// on the H200 (bench/cub/tune/compact_delay_tune.cu, bench/NOTES.md
// 2026-12-04 fifth session).
func compactPolicy(size int64, a int) arch.Policy {
	if a >= 90 && size == 4 {
		return arch.Policy{Arch: a, BlockThreads: 384, ItemsPerThread: 17}
	}
	return selectPolicy(size, a)
}

// partitionPolicy is compactPolicy with select's sm_90 look-back waits,
// FixedDelay<76, 1150>, for 4-byte items: compact_delay_tune.cu timed
// partition_if on the H200 at 725 against 743 µs (uint32) and 715 against
// 739 (float32) at 2^28 with them, 55.3 against 56.1 at 2^24; CUB's own
// partition tuning, 256 × 14 with FixedDelay<536, 1055>, took 757 and 750
// (bench/NOTES.md, 2026-12-04 fifth session).
func partitionPolicy(size int64, a int) arch.Policy {
	p := compactPolicy(size, a)
	if a >= 90 && size == 4 {
		p.Delay = arch.Fixed(76, 1150)
	}
	return p
}

// threeWayPolicy is selectPolicy but for 4-byte items on sm_90 and newer,
// which take CUB 3.0's sm_90 three-way tile for 64-bit offsets
// (tuning_three_way_partition.cuh; our counts are 64-bit), 256 threads × 23
// items: bench/cub/tune/compact_tune.cu timed it the fastest of seven shapes
// at 2^24 and 2^28 on the H200 (1.13–1.19× CUB with the counts carried as a
// pair, against 1.57–1.72× at 128 × 16; bench/NOTES.md, 2026-12-01 late),
// though 128 × 16 is ahead below 2^16. CUB itself tunes by its
// per-partition offsets, which are 32-bit (dispatch_three_way_partition.cuh),
// and so runs 320 × 12 with NoDelay<1105> (one of the seven shapes, slower
// for us). That tuning's waits, NoDelay<910>, timed the same as the default
// (1275 against 1278 µs at 2^28): default kept.
func threeWayPolicy(size int64, a int) arch.Policy {
	if a >= 90 && size == 4 {
		return arch.Policy{Arch: a, BlockThreads: 256, ItemsPerThread: 23}
	}
	return selectPolicy(size, a)
}

// uniqueByKeyPolicy is selectPolicy but for keys and values of at most 4
// bytes, the widest 4, on sm_90 and newer, which take CUB 3.0's sm_90 tile
// for 4-byte keys and values, 512 threads × 14 items: the same H200 run timed
// it at 0.98–0.99× CUB at 2^24 and 2^28 (128 × 16: 1.07–1.17×). The
// tuning's waits, NoDelay<1045>, were slower (945 against 883 µs at 2^28):
// default kept.
func uniqueByKeyPolicy(size int64, a int) arch.Policy {
	if a >= 90 && size == 4 {
		return arch.Policy{Arch: a, BlockThreads: 512, ItemsPerThread: 14}
	}
	return selectPolicy(size, a)
}

// selectInit is a compaction's init kernel (kernels/include/gocccl/select.cuh):
// with tiles == 0 (no items) it writes zeros to the counts; otherwise it
// initializes the stream's region of epoch tile states, which the runtime
// launches it for only when the region is new, grown or out of epochs, so
// that a multi-tile call is one launch in the steady state. A single tile
// needs no states and no init.
func selectInit(template string) Kernel {
	return Kernel{Suffix: "init", Template: template, Params: []Param{
		{Name: "d_state", Kind: Scratch}, {Name: "state_bytes", Kind: Size}, {Name: "tiles", Kind: Size},
		{Name: "d_count", Kind: Out, Type: "int64", Count: true}}}
}

// sweepTail are the parameters every compaction sweep ends with: the items,
// the epoch tile states (null for a single tile) and the call's epoch.
var sweepTail = []Param{{Name: "n", Kind: Size}, {Name: "d_state", Kind: Scratch}, {Name: "state_bytes", Kind: Size},
	{Name: "epoch", Kind: Value, Type: "uint32"}}

// sweep returns a compaction's one-pass kernel with the given leading
// parameters. Its template takes the policy's look-back waits (Delay).
func sweep(template string, params ...Param) Kernel {
	return Kernel{Suffix: "sweep", Template: template, Params: append(params, sweepTail...), Delay: true}
}

// Select is runtime.Select(pred func(T) bool): the items where pred holds,
// in order, and their number (one pass with decoupled look-back).
var Select = register(&Algorithm{
	Name:       "Select",
	Stem:       "select",
	Header:     "select.cuh",
	TypeParams: []string{"T"},
	Ops:        []Operator{{Role: "predicate", Params: []string{"T"}, Results: []string{"bool"}}},
	Kernels: []Kernel{
		selectInit("::gocccl::select_init"),
		sweep("::gocccl::select_if", Param{Name: "d_in", Kind: In, Type: "T"}, Param{Name: "d_out", Kind: Out, Type: "T"},
			Param{Name: "d_count", Kind: Out, Type: "int64", Count: true}),
	},
	Policy: compactPolicy,
})

// Partition is runtime.Partition(pred func(T) bool): the items where pred
// holds in order, then the others in reverse order, and the number of the
// first, as cub::DevicePartition::If.
var Partition = register(&Algorithm{
	Name:       "Partition",
	Stem:       "partition",
	Header:     "select.cuh",
	TypeParams: []string{"T"},
	Ops:        []Operator{{Role: "predicate", Params: []string{"T"}, Results: []string{"bool"}}},
	Kernels: []Kernel{
		selectInit("::gocccl::select_init"),
		sweep("::gocccl::partition_if", Param{Name: "d_in", Kind: In, Type: "T"}, Param{Name: "d_out", Kind: Out, Type: "T"},
			Param{Name: "d_count", Kind: Out, Type: "int64", Count: true}),
	},
	Policy: partitionPolicy,
})

// ThreeWayPartition is runtime.ThreeWayPartition(first, second func(T)
// bool): the items where first holds, of the others those where second
// holds, and the rest, each in order, with the sizes of the first two parts.
var ThreeWayPartition = register(&Algorithm{
	Name:       "ThreeWayPartition",
	Stem:       "partition3",
	Header:     "select.cuh",
	TypeParams: []string{"T"},
	Ops: []Operator{
		{Role: "first predicate", Params: []string{"T"}, Results: []string{"bool"}},
		{Role: "second predicate", Params: []string{"T"}, Results: []string{"bool"}},
	},
	Kernels: []Kernel{
		selectInit("::gocccl::select_init_pair2"),
		sweep("::gocccl::three_way_partition", Param{Name: "d_in", Kind: In, Type: "T"},
			Param{Name: "d_first", Kind: Out, Type: "T"}, Param{Name: "d_second", Kind: Out, Type: "T"},
			Param{Name: "d_unselected", Kind: Out, Type: "T"}, Param{Name: "d_count", Kind: Out, Type: "int64", Count: true}),
	},
	Policy: threeWayPolicy,
})
