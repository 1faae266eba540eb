package algo

import "github.com/gocccl/gocccl/internal/arch"

// scanInit is the first kernel of every scan: it readies the tile states of
// a decoupled look-back. Epoch tile states (values of at most 16 bytes,
// kernels/include/gocccl/epoch_tile_state.cuh) need it once per region of
// memory, CUB's before every call (cub::ScanTileState::InitializeStatus). The
// runtime skips it, and passes no state, when the input is one tile.
func scanInit() Kernel {
	return Kernel{Suffix: "init", Template: "::gocccl::scan_init", Params: []Param{
		{Name: "d_state", Kind: Scratch}, {Name: "state_bytes", Kind: Size}, {Name: "num_tiles", Kind: Size}}}
}

// scanSweep is the single pass of a scan: block b scans tile b and chains
// its prefix to the tiles before it by decoupled look-back
// (cub::TilePrefixCallbackOp). The init value is init, or *d_init when
// d_init is not null (read when the kernel runs: cuda.compute's "future
// value"); has_init says whether an inclusive scan has one at all; epoch is
// the call's epoch over epoch tile states.
func scanSweep(template string) Kernel {
	return Kernel{Suffix: "sweep", Template: template, Params: []Param{
		{Name: "d_in", Kind: In, Type: "T"}, {Name: "d_out", Kind: Out, Type: "T"}, {Name: "n", Kind: Size},
		{Name: "d_state", Kind: Scratch}, {Name: "state_bytes", Kind: Size}, {Name: "epoch", Kind: Value, Type: "uint32"},
		{Name: "init", Kind: Value, Type: "T"}, {Name: "d_init", Kind: In, Type: "T", Fixed: true}, {Name: "has_init", Kind: Value, Type: "bool"}},
		Delay: true}
}

// InclusiveScan is runtime.InclusiveScan(op func(T, T) T): out[i] = [init op]
// in[0] op … op in[i] (kernels/include/gocccl/scan.cuh).
var InclusiveScan = register(&Algorithm{
	Name:       "InclusiveScan",
	Stem:       "inclusive_scan",
	Header:     "scan.cuh",
	TypeParams: []string{"T"},
	Ops:        []Operator{{Role: "operator", Params: []string{"T", "T"}, Results: []string{"T"}}},
	Kernels:    []Kernel{scanInit(), scanSweep("::gocccl::inclusive_scan")},
	Policy:     scanPolicy,
})

// ExclusiveScan is runtime.ExclusiveScan(op func(T, T) T): out[0] = init,
// out[i] = init op in[0] op … op in[i-1].
var ExclusiveScan = register(&Algorithm{
	Name:       "ExclusiveScan",
	Stem:       "exclusive_scan",
	Header:     "scan.cuh",
	TypeParams: []string{"T"},
	Ops:        []Operator{{Role: "operator", Params: []string{"T", "T"}, Results: []string{"T"}}},
	Kernels:    []Kernel{scanInit(), scanSweep("::gocccl::exclusive_scan")},
	Policy:     scanPolicy,
})

// scanPolicy is CUB's scan tuning: on sm_90 the tuned policies of
// cub::DeviceScan for 1-, 2-, 4- and 8-byte accumulators (CCCL's
// tuning_scan.cuh, sm90_tuning), their look-back waits included (those of
// the integer types: float's 4-byte <688, 1140> and double's <576, 1215>
// differ a little); elsewhere, and for other sizes, CUB's default
// AgentScanPolicy<128, 15>. Both are nominal 4-byte shapes that
// cub::AgentScanPolicy scales as cub::MemBoundScaling does (keeping the
// bytes in flight per thread and the tile within 48 KiB), so the sm_90
// tunings run as 192 × 44 (1 byte), 512 × 24 (2), 128 × 24 (4) and 224 × 12
// (8 bytes). Tiles are loaded and stored with warp transposes through shared
// memory, so a tile of BlockThreads × ItemsPerThread × size bytes must stay
// within 48 KiB of static shared memory.
//
// The waits matter at scale: bench/cub/tune/lookback_tune.cu timed the
// 4-byte inclusive sum on the H200 at 2^28 in 802 µs (uint32) and 760 µs
// (float32) with CUB's default waits, 712 and 687 µs with the sm_90
// tuning's, against CUB's 695 and 686 µs (bench/NOTES.md, 2026-12-02). The
// scaling too: unscaled, the 8-byte scans ran 224 × 24 (116 registers, 2
// blocks an SM) at 1.13–1.23× CUB's time at 2^24–2^28 (bench/NOTES.md,
// 2026-12-04 fourth session).
func scanPolicy(size int64, a int) arch.Policy {
	if a >= 90 {
		var p arch.Policy
		switch size {
		case 1:
			p = memBoundScaling(192, 22, size, a)
			p.Delay = arch.Fixed(168, 1140)
		case 2:
			p = memBoundScaling(512, 12, size, a)
			p.Delay = arch.Fixed(376, 1125)
		case 4:
			p = memBoundScaling(128, 24, size, a)
			p.Delay = arch.Fixed(648, 1245)
			// MinBlocks 8 (64 registers) keeps CUB's occupancy for float
			// operators with a NaN twin: their two look-backs over epoch
			// tile states took 96 registers (5 blocks an SM) unbounded, and
			// 2^28 float32 sums 808 µs against 698 (bench/NOTES.md,
			// 2026-12-04 fourth session); bounded, 56 and no spills.
			p.MinBlocks = 8
		case 8:
			p = memBoundScaling(224, 24, size, a)
			p.Delay = arch.Fixed(632, 1290)
		default:
			return memBoundScaling(128, 15, size, a)
		}
		return p
	}
	return memBoundScaling(128, 15, size, a)
}

// memBoundScaling is cub::MemBoundScaling: a policy tuned for 4-byte items
// (threads × items4) rescaled for items of size bytes, keeping the bytes in
// flight per thread and the tile within 48 KiB.
func memBoundScaling(threads, items4 int, size int64, a int) arch.Policy {
	size = max(size, 1)
	items := int(max(1, min(int64(items4)*4/size, int64(items4)*2)))
	perBlock := int((48*1024/(size*int64(items))+31)/32) * 32
	return arch.Policy{Arch: a, BlockThreads: max(32, min(threads, perBlock)), ItemsPerThread: items}
}
