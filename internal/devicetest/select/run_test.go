package selecttest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/runtime"
)

// Each helper uploads its inputs to d, poisons every output, runs one
// instance on a stream of its own and returns the whole outputs and counts.

func upload[T any](t *testing.T, d *runtime.Device, xs []T) *runtime.Slice[T] {
	t.Helper()
	s, err := runtime.FromHost(d, xs)
	require.NoError(t, err)
	t.Cleanup(func() { s.Free() })
	return s
}

func download[T any](t *testing.T, s *runtime.Slice[T]) []T {
	t.Helper()
	xs, err := s.ToHost()
	require.NoError(t, err)
	return xs
}

func stream(t *testing.T, d *runtime.Device) *runtime.Stream {
	t.Helper()
	s, err := d.NewStream()
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func selectOn[T any](t *testing.T, d *runtime.Device, op *runtime.SelectOp[T], xs []T) ([]T, int64) {
	t.Helper()
	in, out, count := upload(t, d, xs), upload(t, d, poison[T](len(xs))), upload(t, d, poison[int64](1))
	s := stream(t, d)
	require.NoError(t, op.Run(s, in, out, count))
	require.NoError(t, s.Synchronize())
	return download(t, out), download(t, count)[0]
}

func partitionOn[T any](t *testing.T, d *runtime.Device, op *runtime.PartitionOp[T], xs []T) ([]T, int64) {
	t.Helper()
	in, out, count := upload(t, d, xs), upload(t, d, poison[T](len(xs))), upload(t, d, poison[int64](1))
	require.NoError(t, op.Run(nil, in, out, count))
	return download(t, out), download(t, count)[0]
}

func threeWayOn[T any](t *testing.T, d *runtime.Device, op *runtime.ThreeWayPartitionOp[T], xs []T) ([3][]T, [3]int64) {
	t.Helper()
	in := upload(t, d, xs)
	a, b, c := upload(t, d, poison[T](len(xs))), upload(t, d, poison[T](len(xs))), upload(t, d, poison[T](len(xs)))
	counts := upload(t, d, poison[int64](3))
	require.NoError(t, op.Run(nil, in, a, b, c, counts))
	k := download(t, counts)
	return [3][]T{download(t, a), download(t, b), download(t, c)}, [3]int64(k)
}

func uniqueOn[T any](t *testing.T, d *runtime.Device, op *runtime.UniqueOp[T], xs []T) ([]T, int64) {
	t.Helper()
	in, out, count := upload(t, d, xs), upload(t, d, poison[T](len(xs))), upload(t, d, poison[int64](1))
	require.NoError(t, op.Run(nil, in, out, count))
	return download(t, out), download(t, count)[0]
}

func uniqueByKeyOn[K, V any](t *testing.T, d *runtime.Device, op *runtime.UniqueByKeyOp[K, V], keys []K, values []V) ([]K, []V, int64) {
	t.Helper()
	ks, vs := upload(t, d, keys), upload(t, d, values)
	kout, vout, count := upload(t, d, poison[K](len(keys))), upload(t, d, poison[V](len(keys))), upload(t, d, poison[int64](1))
	require.NoError(t, op.Run(nil, ks, vs, kout, vout, count))
	return download(t, kout), download(t, vout), download(t, count)[0]
}

func rleOn[T any](t *testing.T, d *runtime.Device, op *runtime.RunLengthEncodeOp[T], xs []T) ([]T, []int64, int64) {
	t.Helper()
	in, out, lens, count := upload(t, d, xs), upload(t, d, poison[T](len(xs))), upload(t, d, poison[int64](len(xs))), upload(t, d, poison[int64](1))
	require.NoError(t, op.Run(nil, in, out, lens, count))
	return download(t, out), download(t, lens), download(t, count)[0]
}

func nonTrivialOn[T any](t *testing.T, d *runtime.Device, op *runtime.RunLengthEncodeOp[T], xs []T) ([]int64, []int64, int64) {
	t.Helper()
	in, offs, lens, count := upload(t, d, xs), upload(t, d, poison[int64](len(xs)/2)), upload(t, d, poison[int64](len(xs)/2)), upload(t, d, poison[int64](1))
	require.NoError(t, op.RunNonTrivial(nil, in, offs, lens, count))
	return download(t, offs), download(t, lens), download(t, count)[0]
}
