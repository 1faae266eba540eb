package selecttest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// Each helper uploads its inputs to d, poisons every output, runs one
// instance on a stream of its own and returns the whole outputs and counts.

func stream(t *testing.T, d *runtime.Device) *runtime.Stream {
	t.Helper()
	s, err := d.NewStream()
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func selectOn[T any](t *testing.T, d *runtime.Device, op *runtime.SelectOp[T], xs []T) ([]T, int64) {
	t.Helper()
	in, out, count := devcheck.Upload(t, d, xs), devcheck.Upload(t, d, devcheck.Poison[T](len(xs))), devcheck.Upload(t, d, devcheck.Poison[int64](1))
	s := stream(t, d)
	require.NoError(t, op.Run(s, in, out, count))
	require.NoError(t, s.Synchronize())
	return devcheck.Download(t, out), devcheck.Download(t, count)[0]
}

func partitionOn[T any](t *testing.T, d *runtime.Device, op *runtime.PartitionOp[T], xs []T) ([]T, int64) {
	t.Helper()
	in, out, count := devcheck.Upload(t, d, xs), devcheck.Upload(t, d, devcheck.Poison[T](len(xs))), devcheck.Upload(t, d, devcheck.Poison[int64](1))
	require.NoError(t, op.Run(nil, in, out, count))
	return devcheck.Download(t, out), devcheck.Download(t, count)[0]
}

func threeWayOn[T any](t *testing.T, d *runtime.Device, op *runtime.ThreeWayPartitionOp[T], xs []T) ([3][]T, [3]int64) {
	t.Helper()
	in := devcheck.Upload(t, d, xs)
	a, b, c := devcheck.Upload(t, d, devcheck.Poison[T](len(xs))), devcheck.Upload(t, d, devcheck.Poison[T](len(xs))), devcheck.Upload(t, d, devcheck.Poison[T](len(xs)))
	counts := devcheck.Upload(t, d, devcheck.Poison[int64](3))
	require.NoError(t, op.Run(nil, in, a, b, c, counts))
	k := devcheck.Download(t, counts)
	return [3][]T{devcheck.Download(t, a), devcheck.Download(t, b), devcheck.Download(t, c)}, [3]int64(k)
}

func uniqueOn[T any](t *testing.T, d *runtime.Device, op *runtime.UniqueOp[T], xs []T) ([]T, int64) {
	t.Helper()
	in, out, count := devcheck.Upload(t, d, xs), devcheck.Upload(t, d, devcheck.Poison[T](len(xs))), devcheck.Upload(t, d, devcheck.Poison[int64](1))
	require.NoError(t, op.Run(nil, in, out, count))
	return devcheck.Download(t, out), devcheck.Download(t, count)[0]
}

func uniqueByKeyOn[K, V any](t *testing.T, d *runtime.Device, op *runtime.UniqueByKeyOp[K, V], keys []K, values []V) ([]K, []V, int64) {
	t.Helper()
	ks, vs := devcheck.Upload(t, d, keys), devcheck.Upload(t, d, values)
	kout, vout, count := devcheck.Upload(t, d, devcheck.Poison[K](len(keys))), devcheck.Upload(t, d, devcheck.Poison[V](len(keys))), devcheck.Upload(t, d, devcheck.Poison[int64](1))
	require.NoError(t, op.Run(nil, ks, vs, kout, vout, count))
	return devcheck.Download(t, kout), devcheck.Download(t, vout), devcheck.Download(t, count)[0]
}

func rleOn[T any](t *testing.T, d *runtime.Device, op *runtime.RunLengthEncodeOp[T], xs []T) ([]T, []int64, int64) {
	t.Helper()
	in, out, lens, count := devcheck.Upload(t, d, xs), devcheck.Upload(t, d, devcheck.Poison[T](len(xs))), devcheck.Upload(t, d, devcheck.Poison[int64](len(xs))), devcheck.Upload(t, d, devcheck.Poison[int64](1))
	require.NoError(t, op.Run(nil, in, out, lens, count))
	return devcheck.Download(t, out), devcheck.Download(t, lens), devcheck.Download(t, count)[0]
}

func nonTrivialOn[T any](t *testing.T, d *runtime.Device, op *runtime.RunLengthEncodeOp[T], xs []T) ([]int64, []int64, int64) {
	t.Helper()
	in, offs, lens, count := devcheck.Upload(t, d, xs), devcheck.Upload(t, d, devcheck.Poison[int64](len(xs)/2)), devcheck.Upload(t, d, devcheck.Poison[int64](len(xs)/2)), devcheck.Upload(t, d, devcheck.Poison[int64](1))
	require.NoError(t, op.RunNonTrivial(nil, in, offs, lens, count))
	return devcheck.Download(t, offs), devcheck.Download(t, lens), devcheck.Download(t, count)[0]
}
