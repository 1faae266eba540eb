package algo

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gocccl/gocccl/internal/arch"
)

func TestScanPolicy(t *testing.T) {
	for _, c := range []struct {
		size      int64
		a         int
		threads   int
		items     int
		minBlocks int
	}{
		{1, 90, 192, 44, 0}, {2, 90, 512, 24, 0}, {4, 90, 128, 24, 8}, {8, 90, 224, 12, 0}, // CUB's sm_90 tunings, scaled
		{4, 80, 128, 15, 0}, {1, 80, 128, 30, 0}, {8, 75, 128, 7, 0}, {12, 90, 128, 5, 0}, {16, 90, 128, 3, 0},
		{2000, 90, 32, 1, 0},
	} {
		p := InclusiveScan.Policy(c.size, c.a)
		shape := p
		shape.Delay = arch.Delay{} // TestLookBackDelays checks the waits
		assert.Equal(t, arch.Policy{Arch: c.a, BlockThreads: c.threads, ItemsPerThread: c.items, MinBlocks: c.minBlocks}, shape, "size %d on sm_%d", c.size, c.a)
		assert.Equal(t, p, ExclusiveScan.Policy(c.size, c.a))
		if c.size <= 1024 {
			assert.LessOrEqual(t, int64(p.Tile())*c.size, int64(48*1024), "a tile's transpose must fit in shared memory")
		}
	}
	assert.Equal(t, "gocccl_inclusive_scan_Add_sweep", InclusiveScan.Kernels[1].Symbol("gocccl_inclusive_scan_Add"))
	assert.False(t, ExclusiveScan.Typed())
}

func TestScanByKeyPolicy(t *testing.T) {
	assert.Equal(t, arch.Policy{Arch: 90, BlockThreads: 288, ItemsPerThread: 14}, InclusiveScanByKey.Policy(4, 90), "CUB's sm_90 tile")
	assert.Equal(t, arch.Policy{Arch: 80, BlockThreads: 256, ItemsPerThread: 9}, InclusiveScanByKey.Policy(4, 80))
	assert.Equal(t, arch.Policy{Arch: 90, BlockThreads: 224, ItemsPerThread: 14, MinBlocks: 4, Delay: arch.Fixed(556, 1195)},
		ExclusiveScanByKey.Policy(8, 90), "CUB's sm_90 tuning of 4-byte keys and 8-byte values, at 4 blocks an SM")
	assert.Equal(t, arch.Policy{Arch: 80, BlockThreads: 256, ItemsPerThread: 9}, ExclusiveScanByKey.Policy(8, 80))
	assert.True(t, InclusiveScanByKey.Kernels[1].Delay && ExclusiveScanByKey.Kernels[1].Delay, "the sweeps take the policy's waits")
	assert.Equal(t, 3, InclusiveScanByKey.Policy(12, 90).ItemsPerThread)
	assert.Equal(t, 1, InclusiveScanByKey.Policy(64, 90).ItemsPerThread)
	assert.False(t, InclusiveScanByKey.Typed())
	assert.Equal(t, "equality", ExclusiveScanByKey.Ops[0].Role)
}

func TestReduceByKeyPolicy(t *testing.T) {
	assert.Equal(t, arch.Policy{Arch: 90, BlockThreads: 256, ItemsPerThread: 18, MinBlocks: 3}, ReduceByKey.Policy(4, 90), "CUB's tile, 3 blocks an SM")
	assert.Equal(t, arch.Policy{Arch: 90, BlockThreads: 128, ItemsPerThread: 13, MinBlocks: 6}, ReduceByKey.Policy(8, 90), "CUB's tile, 6 blocks an SM")
	assert.Equal(t, 6, ReduceByKey.Policy(16, 90).ItemsPerThread)
}
