package runtime

import (
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// Misuse of zero values, nil arguments and closed devices must return
// errors, never panic.
func TestZeroValuesAreErrors(t *testing.T) {
	d := cpuDevice(t)
	in, err := FromHost(d, []int64{1, 2})
	require.NoError(t, err)
	out, err := Alloc[int64](d, 1)
	require.NoError(t, err)

	var zs Slice[int64]
	_, err = zs.ToHost()
	require.ErrorContains(t, err, "uninitialized Slice")
	require.ErrorContains(t, zs.Free(), "uninitialized Slice")
	require.ErrorContains(t, Reduce(add).Run(nil, &zs, out, 0), "uninitialized Slice")
	require.ErrorContains(t, Reduce(add).Run(nil, in, nil, 0), "nil slice")

	var zst Stream
	require.ErrorContains(t, zst.Synchronize(), "uninitialized Stream")
	require.ErrorContains(t, Reduce(add).Run(&zst, in, out, 0), "uninitialized Stream")

	var zd Device
	_, err = Alloc[int64](&zd, 1)
	require.ErrorContains(t, err, "uninitialized Device")
	_, err = Alloc[int64](nil, 1)
	require.ErrorContains(t, err, "uninitialized Device")
	_, err = zd.NewStream()
	require.ErrorContains(t, err, "uninitialized Device")
	require.ErrorContains(t, zd.Close(), "uninitialized Device")
	_, err = Reduce(add).TempStorageBytes(nil, 10)
	require.ErrorContains(t, err, "uninitialized Device")
	_, err = (*ReduceOp[int64])(nil).TempStorageBytes(d, 10)
	require.ErrorContains(t, err, "nil operator")
}

func TestAllocLimits(t *testing.T) {
	d := cpuDevice(t)
	_, err := Alloc[int64](d, 1<<60)
	require.ErrorContains(t, err, "exceed")
	_, err = Alloc[[1 << 20]byte](d, 1<<40)
	require.ErrorContains(t, err, "exceed")
	_, err = Alloc[struct{}](d, 4)
	require.ErrorContains(t, err, "size 0")
}

func TestStreamCloseTwice(t *testing.T) {
	d := cpuDevice(t)
	s, err := d.NewStream()
	require.NoError(t, err)
	require.NoError(t, s.Close())
	require.ErrorIs(t, s.Close(), errStreamClosed)
	require.ErrorIs(t, Reduce(add).Run(s, mustFromHost(t, d, []int64{1}), mustAlloc[int64](t, d, 1), 0), errStreamClosed)
	require.NoError(t, d.DefaultStream().Close(), "closing the default stream does nothing")
}

// TestCloseDuringRuns closes a device while goroutines run algorithms on
// it: every call either completes or reports ErrDeviceClosed.
func TestCloseDuringRuns(t *testing.T) {
	d, err := Open(CPU)
	require.NoError(t, err)
	xs := make([]int64, 1<<16)
	for i := range xs {
		xs[i] = int64(i)
	}
	in := mustFromHost(t, d, xs)
	var wg sync.WaitGroup
	errs := make(chan error, 8*50)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := Alloc[int64](d, 1)
			if err != nil {
				errs <- err
				return
			}
			for i := 0; i < 50; i++ {
				errs <- Reduce(add).Run(nil, in, out, 0)
			}
		}()
	}
	require.NoError(t, d.Close())
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil && !errors.Is(err, ErrDeviceClosed) {
			t.Fatalf("want success or ErrDeviceClosed, got %v", err)
		}
	}
}

func mustFromHost[T any](t *testing.T, d *Device, xs []T) *Slice[T] {
	t.Helper()
	s, err := FromHost(d, xs)
	require.NoError(t, err)
	return s
}

func mustAlloc[T any](t *testing.T, d *Device, n int) *Slice[T] {
	t.Helper()
	s, err := Alloc[T](d, n)
	require.NoError(t, err)
	return s
}
