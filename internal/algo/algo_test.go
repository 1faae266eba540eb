package algo

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/internal/arch"
)

// TestDescriptions checks every registered description, as register does,
// and that names, stems and symbols are distinct.
func TestDescriptions(t *testing.T) {
	stems := map[string]string{}
	for _, a := range All() {
		require.NoError(t, a.validate(), a.Name)
		assert.Same(t, a, Lookup(a.Name))
		if other, dup := stems[a.Stem]; dup {
			t.Errorf("%s and %s share the stem %s", a.Name, other, a.Stem)
		}
		stems[a.Stem] = a.Name
		p := a.Policy(4, 90)
		assert.Positive(t, p.BlockThreads, a.Name)
		assert.Positive(t, p.ItemsPerThread, a.Name)
		assert.Equal(t, 90, p.Arch, a.Name)
	}
	assert.Nil(t, Lookup("NoSuchAlgorithm"))
}

func TestPolicies(t *testing.T) {
	for _, c := range []struct {
		size  int64
		items int
	}{{1, 32}, {2, 32}, {4, 16}, {8, 8}, {12, 5}, {16, 4}, {64, 1}, {128, 1}} {
		assert.Equal(t, arch.Policy{Arch: 90, BlockThreads: 256, ItemsPerThread: c.items}, Reduce.Policy(c.size, 90), "reduce size %d", c.size)
	}
	assert.Equal(t, 32, UnaryTransform.Policy(1, 75).ItemsPerThread)
	assert.Equal(t, 16, BinaryTransform.Policy(2, 75).ItemsPerThread)
	assert.Equal(t, 4, UnaryTransform.Policy(8, 90).ItemsPerThread)
	assert.Equal(t, 1, UnaryTransform.Policy(40, 90).ItemsPerThread)
}

// TestMergePolicy: CUB's merge tuning (512 × 15 four-byte items, 60 bytes
// a thread), with fewer threads where a tile of wide items would not fit;
// on sm_90 the H200's shapes for 4- and 8-byte keys, 15 KiB tiles, the
// 4-byte one with 8 blocks an SM.
func TestMergePolicy(t *testing.T) {
	for _, c := range []struct {
		size                      int64
		arch                      int
		threads, items, minBlocks int
	}{
		{1, 80, 512, 15, 0}, {4, 80, 512, 15, 0}, {8, 80, 512, 7, 0}, {16, 80, 512, 3, 0}, {24, 80, 512, 2, 0},
		{64, 80, 512, 1, 0}, {100, 80, 256, 1, 0}, {200, 80, 128, 1, 0}, {2000, 80, 32, 1, 0},
		{1, 90, 512, 15, 0}, {2, 90, 512, 15, 0}, {4, 90, 256, 15, 8}, {8, 90, 128, 15, 0}, {16, 90, 512, 3, 0},
		{4, 100, 256, 15, 8},
	} {
		p := Merge.Policy(c.size, c.arch)
		want := arch.Policy{Arch: c.arch, BlockThreads: c.threads, ItemsPerThread: c.items, MinBlocks: c.minBlocks}
		assert.Equal(t, want, p, "size %d, sm_%d", c.size, c.arch)
		if c.threads > 32 {
			assert.LessOrEqual(t, int64(p.Tile())*c.size, int64(mergeTileBytes), "size %d", c.size)
			// merge_tiles' shared array: the tile and one slot past it.
			assert.LessOrEqual(t, int64(p.Tile()+1)*c.size, int64(48<<10), "size %d: shared memory", c.size)
		}
	}
}

// TestRunLengthEncodePolicy: CUB's sm_90 Encode tuning (192 × 14 with its
// look-back waits, at least 5 blocks an SM) for 4-byte items on sm_90 on,
// selectPolicy's tile with CUB's default waits otherwise.
func TestRunLengthEncodePolicy(t *testing.T) {
	encode := func(a int) arch.Policy {
		return arch.Policy{Arch: a, BlockThreads: 192, ItemsPerThread: 14, MinBlocks: 5, Delay: arch.Fixed(284, 480)}
	}
	plain := func(a, threads, items int) arch.Policy {
		return arch.Policy{Arch: a, BlockThreads: threads, ItemsPerThread: items}
	}
	for _, c := range []struct {
		size int64
		arch int
		want arch.Policy
	}{
		{4, 90, encode(90)}, {4, 100, encode(100)}, {4, 80, plain(80, 128, 16)}, {8, 90, plain(90, 128, 8)},
		{1, 90, plain(90, 128, 16)}, {2, 90, plain(90, 128, 16)},
	} {
		assert.Equal(t, c.want, RunLengthEncode.Policy(c.size, c.arch), "size %d, sm_%d", c.size, c.arch)
	}
}

// TestCompactionPolicies: the compactions take CUB's sm_90 tiles and
// look-back waits for 4-byte items on sm_90 on (Select, Partition and
// Unique select_if's 384 × 17 with FixedDelay<76, 1150>; ThreeWayPartition
// the 64-bit-offset three-way 256 × 23 with NoDelay<910>; UniqueByKey the
// 4-byte keys and values' 512 × 14 with NoDelay<1045>), selectPolicy's tile
// with CUB's default waits for every other size and architecture; their
// sweeps, and only those, take the waits.
func TestCompactionPolicies(t *testing.T) {
	plain := func(a, threads, items int) arch.Policy {
		return arch.Policy{Arch: a, BlockThreads: threads, ItemsPerThread: items}
	}
	tuned := func(a, threads, items int, d arch.Delay) arch.Policy {
		return arch.Policy{Arch: a, BlockThreads: threads, ItemsPerThread: items, Delay: d}
	}
	for _, c := range []struct {
		alg     *Algorithm
		threads int
		items   int
		delay   arch.Delay
	}{
		// Only Partition's waits timed faster than CUB's default on the
		// H200 (compact_delay_tune.cu, bench/NOTES.md 2026-12-04 fifth).
		{Select, 384, 17, arch.Delay{}},
		{Partition, 384, 17, arch.Fixed(76, 1150)},
		{Unique, 384, 17, arch.Delay{}},
		{ThreeWayPartition, 256, 23, arch.Delay{}},
		{UniqueByKey, 512, 14, arch.Delay{}},
	} {
		for _, a := range []int{90, 100} {
			assert.Equal(t, tuned(a, c.threads, c.items, c.delay), c.alg.Policy(4, a), "%s sm_%d", c.alg.Name, a)
		}
		assert.Equal(t, plain(80, 128, 16), c.alg.Policy(4, 80), c.alg.Name)
		assert.Equal(t, plain(75, 128, 16), c.alg.Policy(4, 75), c.alg.Name)
		for _, size := range []int64{1, 2, 8, 16} {
			assert.Equal(t, plain(90, 128, int(min(16, max(1, 64/size)))), c.alg.Policy(size, 90), "%s size %d", c.alg.Name, size)
		}
		for _, k := range c.alg.Kernels {
			assert.Equal(t, k.Suffix == "sweep", k.Delay, "%s kernel %s", c.alg.Name, k.Suffix)
		}
	}
	assert.Equal(t, "::gocccl::FixedDelay<76, 1150>", Partition.Policy(4, 90).Delay.CType())
	assert.Equal(t, "::gocccl::DefaultDelay", Select.Policy(4, 90).Delay.CType())
}

// TestLookBackDelays: the scans take CUB's sm_90 look-back waits on sm_90
// and newer and CUB's default before; only kernels that look back take
// them, and every algorithm whose policy sets one has such a kernel.
func TestLookBackDelays(t *testing.T) {
	assert.Equal(t, arch.Fixed(648, 1245), InclusiveScan.Policy(4, 90).Delay)
	assert.Equal(t, arch.Fixed(632, 1290), ExclusiveScan.Policy(8, 100).Delay)
	assert.Equal(t, arch.Delay{}, InclusiveScan.Policy(4, 80).Delay)
	assert.Equal(t, arch.Policy{Arch: 90, BlockThreads: 288, ItemsPerThread: 14}, InclusiveScanByKey.Policy(4, 90))
	for _, a := range All() {
		delays := false
		for _, k := range a.Kernels {
			delays = delays || k.Delay
		}
		for _, size := range []int64{1, 2, 4, 8, 16} {
			for _, cc := range []int{75, 80, 90, 100} {
				if a.Policy(size, cc).Delay != (arch.Delay{}) {
					assert.True(t, delays, "%s sets look-back waits but no kernel of it takes them", a.Name)
				}
			}
		}
	}
}

func TestTypedAndSignature(t *testing.T) {
	assert.False(t, Reduce.Typed())
	assert.False(t, BinaryTransform.Typed())
	typed := &Algorithm{TypeParams: []string{"K", "V"}, Ops: []Operator{{Role: "comparison", Params: []string{"K", "K"}, Results: []string{"bool"}}}}
	assert.True(t, typed.Typed())
	assert.Equal(t, "func(K, K) bool", typed.Ops[0].Signature())
	assert.Equal(t, "gocccl_x_final", Kernel{Suffix: "final"}.Symbol("gocccl_x"))
	assert.Equal(t, "gocccl_x", Kernel{}.Symbol("gocccl_x"))
}

func TestValidate(t *testing.T) {
	ok := func() *Algorithm {
		return &Algorithm{Name: "X", Stem: "x", Header: "x.cuh", TypeParams: []string{"T"},
			Ops:     []Operator{{Role: "operator", Params: []string{"T"}, Results: []string{"bool"}}},
			Kernels: []Kernel{{Template: "::x", Params: []Param{{Name: "in", Kind: In, Type: "T"}, {Name: "n", Kind: Size}}}},
			Policy:  func(size int64, a int) arch.Policy { return arch.MemBound(size, 32, a) }}
	}
	require.NoError(t, ok().validate())
	bad := ok()
	bad.Ops[0].Params[0] = "U"
	assert.ErrorContains(t, bad.validate(), "unknown type U")
	bad = ok()
	bad.Kernels[0].Params[0].Type = "U"
	assert.ErrorContains(t, bad.validate(), `unknown type "U"`)
	bad = ok()
	bad.Kernels = append(bad.Kernels, bad.Kernels[0])
	assert.ErrorContains(t, bad.validate(), "two kernels")
	bad = ok()
	bad.Policy = nil
	assert.Error(t, bad.validate())
	bad = ok()
	bad.Kernels[0].Params[0].Count = true
	assert.ErrorContains(t, bad.validate(), "only an Out parameter that is not Fixed can be a Count")
}

// TestIntoOutputs: a compaction's counts keep their place in Outputs (and
// so in registry keys) but Into declares compositions only for the others.
func TestIntoOutputs(t *testing.T) {
	assert.Equal(t, []string{"d_count", "d_out"}, Select.Outputs()) // the init kernel names d_count first
	assert.Equal(t, []string{"d_out"}, Select.IntoOutputs())
	assert.Equal(t, []string{"d_out"}, Partition.IntoOutputs())
	assert.Equal(t, []string{"d_out"}, Unique.IntoOutputs())
	assert.Equal(t, []string{"d_first", "d_second", "d_unselected"}, ThreeWayPartition.IntoOutputs())
	assert.Equal(t, []string{"d_keys_out", "d_values_out"}, UniqueByKey.IntoOutputs())
	assert.Equal(t, Reduce.Outputs(), Reduce.IntoOutputs())
}

// TestTransformNM checks the N×M transforms' table: every arity of the
// family described once, under its systematic name, with UnaryTransform
// and BinaryTransform in the places of 1×1 and 2×1.
func TestTransformNM(t *testing.T) {
	assert.Same(t, UnaryTransform, TransformNM(1, 1))
	assert.Same(t, BinaryTransform, TransformNM(2, 1))
	assert.Nil(t, TransformNM(0, 1))
	assert.Nil(t, TransformNM(5, 1))
	assert.Nil(t, TransformNM(1, 4))
	count := 0
	for n := 1; n <= MaxTransformInputs; n++ {
		for m := 1; m <= MaxTransformOutputs; m++ {
			a := TransformNM(n, m)
			require.NotNil(t, a, "%dx%d", n, m)
			require.Len(t, a.Ops, 1)
			assert.Len(t, a.Ops[0].Params, n, a.Name)
			assert.Len(t, a.Ops[0].Results, m, a.Name)
			assert.Len(t, a.Inputs(), n, a.Name)
			assert.Len(t, a.IntoOutputs(), m, a.Name)
			assert.False(t, a.Typed(), a.Name)
			if m > 1 || n > 2 {
				assert.Equal(t, TransformNMName(n, m), a.Name)
				assert.Same(t, a, Lookup(a.Name))
				count++
			}
		}
	}
	assert.Equal(t, 10, count)
	assert.Equal(t, "func(A, B, C) (R1, R2)", TransformNM(3, 2).Ops[0].Signature())
	assert.Equal(t, "Transform4", TransformNM(4, 1).Name)
	a, stateful := LookupConstructor("Transform2x3With")
	assert.Same(t, TransformNM(2, 3), a)
	assert.True(t, stateful)
}
