package runtime

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func feStep(x uint32) uint32 { return x*2654435761 + 7 }

func TestForEachCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 14))
	for _, n := range []int{0, 1, 2047, 2048, 2049, minChunk + 1, 7919, 1_000_003} {
		xs := make([]uint32, n)
		want := make([]uint32, n)
		for i := range xs {
			xs[i] = r.Uint32()
			want[i] = feStep(xs[i])
		}
		data, err := FromHost(d, xs)
		require.NoError(t, err)
		require.NoError(t, ForEach(feStep).Run(nil, data))
		got, err := data.ToHost()
		require.NoError(t, err)
		require.Equal(t, want, got, "n=%d", n)
		// A view: only its elements change.
		if n > 2 {
			require.NoError(t, ForEach(feStep).Run(nil, data.Range(1, 2)))
			got, _ = data.ToHost()
			require.Equal(t, feStep(want[1]), got[1])
			require.Equal(t, want[0], got[0])
			require.Equal(t, want[2], got[2])
		}
		data.Free()
	}
}

func TestForEachErrors(t *testing.T) {
	d := cpuDevice(t)
	data, _ := FromHost(d, []uint32{1, 2})
	for name, err := range map[string]error{
		"nil operator": ForEach[uint32](nil).Run(nil, data),
		"nil data":     ForEach(feStep).Run(nil, nil),
		"panic":        ForEach(func(uint32) uint32 { panic("boom") }).Run(nil, data),
		"bad view":     ForEach(feStep).Run(nil, data.Range(1, 5)),
	} {
		require.Error(t, err, name)
		require.Contains(t, err.Error(), "ForEach", name)
	}
}
