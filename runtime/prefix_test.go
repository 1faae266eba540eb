package runtime

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestErrorsPrefixedOnce: every error a closed device, a closed or nil
// stream, or a freed slice produces says "gocccl: " once, names the call,
// and still matches its sentinel with errors.Is.
func TestErrorsPrefixedOnce(t *testing.T) {
	once := func(t *testing.T, err error, target error, what string) {
		t.Helper()
		require.Error(t, err, what)
		if target != nil {
			require.ErrorIs(t, err, target, what)
		}
		require.Equal(t, 1, strings.Count(err.Error(), "gocccl: "), "%s: %q", what, err)
		require.True(t, strings.HasPrefix(err.Error(), "gocccl: "), "%s: %q", what, err)
	}

	d, err := Open(CPU)
	require.NoError(t, err)
	in, err := FromHost(d, []uint32{3, 1, 2})
	require.NoError(t, err)
	out, err := Alloc[uint32](d, 3)
	require.NoError(t, err)
	count, err := Alloc[int64](d, 1)
	require.NoError(t, err)
	s, err := d.NewStream()
	require.NoError(t, err)
	calls := misuseCalls()

	// A closed stream and a nil one, in every algorithm.
	closed, err := d.NewStream()
	require.NoError(t, err)
	require.NoError(t, closed.Close())
	once(t, closed.Close(), errStreamClosed, "Stream.Close twice")
	once(t, closed.Synchronize(), errStreamClosed, "Synchronize")
	for _, c := range calls {
		once(t, callSafely(t, c, closed, in, out, count), errStreamClosed, c.name+" on a closed stream")
	}

	// A freed input.
	gone, err := FromHost(d, []uint32{1})
	require.NoError(t, err)
	require.NoError(t, gone.Free())
	once(t, gone.Free(), ErrFreed, "Free twice")
	_, err = gone.ToHost()
	once(t, err, ErrFreed, "ToHost")
	for _, c := range calls {
		once(t, callSafely(t, c, s, gone, out, count), ErrFreed, c.name+" with a freed input")
	}

	// Everything after Close.
	require.NoError(t, d.Close())
	once(t, d.Close(), ErrDeviceClosed, "Close twice")
	_, err = in.ToHost()
	once(t, err, ErrDeviceClosed, "ToHost")
	once(t, in.CopyFromHost([]uint32{1, 2, 3}), ErrDeviceClosed, "CopyFromHost")
	once(t, in.Free(), ErrDeviceClosed, "Free")
	_, err = Alloc[int64](d, 1)
	once(t, err, ErrDeviceClosed, "Alloc")
	_, err = d.NewStream()
	once(t, err, ErrDeviceClosed, "NewStream")
	once(t, s.Synchronize(), ErrDeviceClosed, "Synchronize")
	_, err = s.Capture(func() error { return nil })
	if err != nil {
		once(t, err, nil, "Capture")
	}
	for _, c := range calls {
		once(t, callSafely(t, c, s, in, out, count), ErrDeviceClosed, c.name)
	}
	_, err = Reduce(addMisuse).TempStorageBytes(d, 10)
	once(t, err, ErrDeviceClosed, "Reduce.TempStorageBytes")
	_, err = InclusiveScan(addMisuse).TempStorageBytes(d, 10)
	once(t, err, ErrDeviceClosed, "InclusiveScan.TempStorageBytes")

	// An uninitialized device.
	var zero Device
	once(t, zero.Close(), nil, "Close of a zero Device")
	_, err = Alloc[int64](&zero, 1)
	once(t, err, nil, "Alloc on a zero Device")
	require.False(t, errors.Is(err, ErrDeviceClosed))
}
