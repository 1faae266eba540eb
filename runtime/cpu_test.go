package runtime

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func add(a, b int64) int64 { return a + b }

func div(a, b int32) int32 { return a / b }

func neg(x int64) int64 { return -x }

func cpuDevice(t *testing.T) *Device {
	t.Helper()
	d, err := Open(CPU)
	require.NoError(t, err)
	t.Cleanup(func() { d.Close() })
	return d
}

func TestReduceCPUMatchesLoop(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 3))
	for _, n := range []int{0, 1, 2, minChunk - 1, minChunk, minChunk + 1, 9 * minChunk, 1_000_003} {
		xs := make([]int64, n)
		for i := range xs {
			xs[i] = int64(r.Uint64())
		}
		init := int64(r.Uint64())
		want := init
		for _, x := range xs {
			want += x
		}
		in, err := FromHost(d, xs)
		require.NoError(t, err)
		out, err := FromHost(d, []int64{-1})
		require.NoError(t, err)
		require.NoError(t, Reduce(add).Run(nil, in, out, init))
		got, err := out.ToHost()
		require.NoError(t, err)
		require.Equal(t, want, got[0], "n=%d", n)
	}
}

// TestReduceCPUOrder checks that the CPU backend folds in order across its
// chunks: "last" is associative but not commutative, so any reordering of the
// chunks or of the init value shows.
func TestReduceCPUOrder(t *testing.T) {
	d := cpuDevice(t)
	last := func(a, b int64) int64 { return b }
	for _, n := range []int{1, 3, 5*minChunk + 17} {
		xs := make([]int64, n)
		for i := range xs {
			xs[i] = int64(i) + 1
		}
		in, err := FromHost(d, xs)
		require.NoError(t, err)
		out, err := Alloc[int64](d, 1)
		require.NoError(t, err)
		require.NoError(t, Reduce(last).Run(nil, in, out, -1))
		got, err := out.ToHost()
		require.NoError(t, err)
		require.Equal(t, int64(n), got[0])
	}
}

func TestOperatorPanicIsError(t *testing.T) {
	d := cpuDevice(t)
	in, err := FromHost(d, []int32{1, 0, 3})
	require.NoError(t, err)
	out, err := Alloc[int32](d, 1)
	require.NoError(t, err)
	err = Reduce(div).Run(nil, in, out, 7)
	require.ErrorContains(t, err, "operator panicked")
	require.ErrorContains(t, err, "divide by zero")
}

func TestRunErrors(t *testing.T) {
	d := cpuDevice(t)
	other := cpuDevice(t)
	in, err := FromHost(d, []int64{1, 2, 3})
	require.NoError(t, err)
	empty, err := Alloc[int64](d, 0)
	require.NoError(t, err)
	elsewhere, err := Alloc[int64](other, 3)
	require.NoError(t, err)
	two, err := Alloc[int64](d, 2)
	require.NoError(t, err)

	require.ErrorContains(t, Reduce(add).Run(nil, in, empty, 0), "no element")
	require.ErrorContains(t, Reduce(add).Run(nil, in, elsewhere, 0), "buffer 2 (of 2) is on")
	require.ErrorContains(t, Reduce[int64](nil).Run(nil, in, two, 0), "nil operator")
	require.ErrorContains(t, UnaryTransform(neg).Run(nil, in, two), "input has 3 elements, output 2")
	require.ErrorContains(t, BinaryTransform(add).Run(nil, in, two, in), "inputs have 3 and 2 elements")
	require.ErrorContains(t, in.CopyFromHost([]int64{1}), "source has 1 elements, slice has 3")
	require.ErrorContains(t, in.CopyToHost(make([]int64, 4)), "destination has 4 elements")
	_, err = Alloc[int64](d, -1)
	require.ErrorContains(t, err, "negative length")
	_, err = Alloc[*int](d, 1)
	require.ErrorContains(t, err, "not plain data")
	_, err = Alloc[struct {
		A int32
		B string
	}](d, 1)
	require.ErrorContains(t, err, "field B")
}

func TestClosedDevice(t *testing.T) {
	d, err := Open(CPU)
	require.NoError(t, err)
	in, err := FromHost(d, []int64{1, 2})
	require.NoError(t, err)
	s, err := d.NewStream()
	require.NoError(t, err)
	require.Empty(t, d.LoadedModules(), "a CPU device loads no module")
	require.NoError(t, d.Close())
	require.ErrorIs(t, d.Close(), ErrDeviceClosed)
	_, err = in.ToHost()
	require.ErrorIs(t, err, ErrDeviceClosed)
	require.ErrorIs(t, s.Synchronize(), ErrDeviceClosed)
	_, err = Alloc[int64](d, 1)
	require.ErrorIs(t, err, ErrDeviceClosed)
}

func TestOpenBackendFromEnvironment(t *testing.T) {
	t.Setenv("GOCCCL_BACKEND", "cpu")
	d, err := Open(Auto)
	require.NoError(t, err)
	defer d.Close()
	require.Equal(t, CPU, d.Backend())
	require.Empty(t, d.Info().Fallback)

	t.Setenv("GOCCCL_BACKEND", "tpu")
	_, err = Open(Auto)
	require.ErrorContains(t, err, `GOCCCL_BACKEND="tpu"`)
}

func TestAutoFallsBackToCPU(t *testing.T) {
	t.Setenv("GOCCCL_BACKEND", "")
	if g, err := OpenGPU(0); err == nil {
		g.Close()
		t.Skip("a GPU is present; the fallback cannot be observed")
	}
	d, err := Open(Auto)
	require.NoError(t, err)
	defer d.Close()
	require.Equal(t, CPU, d.Backend())
	require.NotEmpty(t, d.Info().Fallback, "the device should say why it fell back")
	require.Contains(t, d.String(), "CPU")
}

// TestTwoCPUDevicesDiffer: messages about buffers on two CPU devices say
// which is which, and a CPU device does not read like an error.
func TestTwoCPUDevicesDiffer(t *testing.T) {
	a, b := cpuDevice(t), cpuDevice(t)
	require.NotEqual(t, a.String(), b.String())
	in := mustFromHost(t, a, []int64{1, 2})
	out := mustAlloc[int64](t, b, 1)
	err := Reduce(add).Run(nil, in, out, 0)
	require.Error(t, err)
	require.Contains(t, err.Error(), a.Info().Name)
	require.Contains(t, err.Error(), b.Info().Name)
	require.NotContains(t, a.String(), "[")
}

// TestGraphCPU: on the CPU backend a captured sequence runs at each Launch,
// not at Capture, and a closed graph says so.
func TestGraphCPU(t *testing.T) {
	d := cpuDevice(t)
	s, err := d.NewStream()
	require.NoError(t, err)
	in := mustFromHost(t, d, []int64{1, 2, 3})
	out := mustAlloc[int64](t, d, 1)
	sum := Reduce(add)
	runs := 0
	g, err := s.Capture(func() error { runs++; return sum.Run(s, in, out, 0) })
	require.NoError(t, err)
	require.Equal(t, 0, runs)
	require.NoError(t, in.CopyFromHost([]int64{4, 5, 6}))
	require.NoError(t, g.Launch())
	got, err := out.ToHost()
	require.NoError(t, err)
	require.Equal(t, []int64{15}, got)
	require.NoError(t, g.Close())
	require.ErrorContains(t, g.Launch(), "closed")
	require.Error(t, g.Close())
}
