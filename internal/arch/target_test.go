package arch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseTargets(t *testing.T) {
	ts, err := ParseTargets("-arch=compute_90,sm_90, sm_80,sm_90")
	require.NoError(t, err)
	assert.Equal(t, []Target{{Arch: 80}, {Arch: 90}, {Arch: 90, PTX: true}}, ts)
	assert.Equal(t, []int{80, 90}, Archs(ts))
	for _, bad := range []string{"", "sm_9", "sm_090", "gfx90", "compute_x"} {
		_, err := ParseTargets(bad)
		assert.Error(t, err, bad)
	}
}

func TestTargetText(t *testing.T) {
	for _, tt := range []Target{{Arch: 75}, {Arch: 120, PTX: true}} {
		b, err := tt.MarshalText()
		require.NoError(t, err)
		var back Target
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, tt, back)
	}
	assert.Equal(t, "gocccl_gen_sm_90.cubin", Target{Arch: 90}.FileName())
	assert.Equal(t, "gocccl_gen_compute_90.ptx", Target{Arch: 90, PTX: true}.FileName())
}

func TestMemBound(t *testing.T) {
	assert.Equal(t, Policy{Arch: 90, BlockThreads: 256, ItemsPerThread: 16}, MemBound(4, 64, 90))
	assert.Equal(t, 32, MemBound(1, 64, 90).ItemsPerThread)
	assert.Equal(t, 1, MemBound(40, 32, 90).ItemsPerThread)
	assert.Equal(t, 256*8, MemBound(4, 32, 80).Tile())
}

func TestDelayCType(t *testing.T) {
	assert.Equal(t, "::gocccl::DefaultDelay", Delay{}.CType(), "the zero Delay is CUB's default")
	assert.Equal(t, "::gocccl::FixedDelay<648, 1245>", Fixed(648, 1245).CType())
	assert.Equal(t, "::gocccl::NoDelay<1170>", Delay{Kind: NoDelay, L2WriteLatency: 1170}.CType())
}
