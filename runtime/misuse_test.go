package runtime

import (
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
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
	err = Reduce(add).Run(s, mustFromHost(t, d, []int64{1}), mustAlloc[int64](t, d, 1), 0)
	require.ErrorIs(t, err, errStreamClosed)
	assert.Equal(t, "gocccl: Reduce: stream is closed", err.Error())
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

// TestRange: a view reads and writes its part of the allocation, follows
// the allocation's Free, cannot be freed itself, and a bad range is an
// error at its first use.
func TestRange(t *testing.T) {
	d, err := Open(CPU)
	require.NoError(t, err)
	defer d.Close()
	s, err := FromHost(d, []int32{1, 2, 3, 4, 5, 6})
	require.NoError(t, err)
	v := s.Range(1, 5).Range(1, 3) // elements 2 and 3 of s
	assert.Equal(t, 2, v.Len())
	got, err := v.ToHost()
	require.NoError(t, err)
	assert.Equal(t, []int32{3, 4}, got)
	require.NoError(t, v.CopyFromHost([]int32{30, 40}))
	all, err := s.ToHost()
	require.NoError(t, err)
	assert.Equal(t, []int32{1, 2, 30, 40, 5, 6}, all)
	assert.ErrorContains(t, v.Free(), "view made by Range")

	bad := s.Range(4, 7)
	_, err = bad.ToHost()
	assert.ErrorContains(t, err, "Range(4, 7) of a slice of 6 elements is out of bounds")
	assert.Equal(t, 0, s.Range(6, 6).Len())
	_, err = s.Range(3, 2).ToHost()
	assert.Error(t, err)
	_, err = bad.Range(0, 1).ToHost()
	assert.EqualError(t, err, "gocccl: ToHost: Range(4, 7) of a slice of 6 elements is out of bounds", "a view of a bad view names the first bad range, once")

	require.NoError(t, s.Free())
	_, err = v.ToHost()
	assert.ErrorIs(t, err, ErrFreed)
	assert.NotContains(t, err.Error(), "gocccl: ToHost: gocccl:")
}
