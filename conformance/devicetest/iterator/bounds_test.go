package iterator

import (
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/runtime"
)

// The GPU halves of these tests trap the kernel, which loses the device's
// context for the rest of the process: they run only with
// GOCCCL_TEST_TRAP=1, each in a process of its own (gpu-bundle/run.sh's
// trap steps).
func trapping(t *testing.T, gpu bool) bool {
	return gpu && os.Getenv("GOCCCL_TEST_TRAP") == "1"
}

func fromHost[T any](t *testing.T, d *runtime.Device, xs []T) *runtime.Slice[T] {
	t.Helper()
	s, err := runtime.FromHost(d, xs)
	require.NoError(t, err)
	return s
}

func allocated[T any](t *testing.T, d *runtime.Device, n int) *runtime.Slice[T] {
	t.Helper()
	s, err := runtime.Alloc[T](d, n)
	require.NoError(t, err)
	return s
}

// requireFault requires the error of a call that trapped, or else of the
// download that waits for it: a FaultError naming the instance.
func requireFault[T any](t *testing.T, err error, out *runtime.Slice[T], instance string) {
	t.Helper()
	if err == nil {
		_, err = out.ToHost()
	}
	require.Error(t, err, "an index out of range must not pass silently on the GPU")
	require.True(t, errors.Is(err, runtime.ErrDeviceFaulted), "%v", err)
	require.ErrorContains(t, err, instance)
	require.ErrorContains(t, err, "declared at", "the fault names where the instance is declared")
}

// TestPermutationOutOfRange: a Permutation index outside its values is an
// error on the CPU backend; on a GPU the kernel checks it against the bound
// packed after the indices and traps, so the call fails with a FaultError
// that names the instance instead of reading outside the buffer. An index
// in range still reads its value first.
func TestPermutationOutOfRange(t *testing.T) {
	dut, oracle, gpu := devices(t)
	xs := []int32{10, 20, 30, 40}
	out := allocated[int32](t, oracle, 1)
	err := SumGather.Run(nil, Gather.Bind(XsI32.With(fromHost(t, oracle, xs)), Idx.With(fromHost(t, oracle, []int64{0, 9, 1}))), out, 0)
	require.ErrorContains(t, err, "index 9 (at 1) is outside the 4 values")
	if !trapping(t, gpu) {
		return
	}
	vals := fromHost(t, dut, xs)
	sum := allocated[int32](t, dut, 1)
	require.NoError(t, SumGather.Run(nil, Gather.Bind(XsI32.With(vals), Idx.With(fromHost(t, dut, []int64{3, 3, 0}))), sum, 0))
	got, err := sum.ToHost()
	require.NoError(t, err)
	require.Equal(t, []int32{90}, got)
	err = SumGather.Run(nil, Gather.Bind(XsI32.With(vals), Idx.With(fromHost(t, dut, []int64{0, 4, 1}))), sum, 0)
	requireFault(t, err, sum, "Reduce")
}

// TestPermutationOutputOutOfRange: the same for a PermutationOutput index
// outside its output, which would otherwise write outside the buffer; a
// negative index is out of range too.
func TestPermutationOutputOutOfRange(t *testing.T) {
	dut, oracle, gpu := devices(t)
	xs := []int32{1, 2, 3}
	o := allocated[int32](t, oracle, 3)
	err := Scatter.Run(nil, fromHost(t, oracle, xs), Scattered.Bind(OutI32.With(o), Idx.With(fromHost(t, oracle, []int64{2, -1, 0}))))
	require.ErrorContains(t, err, "index -1 (at 1) is outside the 3 elements of its output")
	if !trapping(t, gpu) {
		return
	}
	in := fromHost(t, dut, xs)
	out := allocated[int32](t, dut, 3)
	require.NoError(t, Scatter.Run(nil, in, Scattered.Bind(OutI32.With(out), Idx.With(fromHost(t, dut, []int64{2, 1, 0})))))
	got, err := out.ToHost()
	require.NoError(t, err)
	require.Equal(t, []int32{Twice(3), Twice(2), Twice(1)}, got)
	err = Scatter.Run(nil, in, Scattered.Bind(OutI32.With(out), Idx.With(fromHost(t, dut, []int64{2, -1, 0}))))
	requireFault(t, err, out, "UnaryTransform")
}
