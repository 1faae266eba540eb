package runtime

import (
	"errors"
	"strings"
	"testing"

	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/stretchr/testify/require"
)

// TestKernelFault: a driver error that loses the context becomes a
// FaultError naming the device and the last instance launched; every later
// call on the device fails with it; other driver errors pass unchanged.
// (A CPU device stands in for the GPU: the bookkeeping is the same; the GPU
// suite's TestIndexOutOfRange traps a real kernel.)
func TestKernelFault(t *testing.T) {
	d := openCPUDevice(t)
	oom := &cuda.Error{Call: "cuMemAlloc", Code: cuda.ErrorOutOfMemory}
	require.Same(t, error(oom), d.noteFault(oom), "not sticky: unchanged")
	require.Nil(t, d.noteFault(nil))
	in, err := FromHost(d, []uint32{1, 2, 3})
	require.NoError(t, err, "the device still works")
	out, err := Alloc[uint32](d, 1)
	require.NoError(t, err)

	sum := Reduce(addMisuse)
	d.lastLaunch.Store(&sum.instance)
	trap := &cuda.Error{Call: "cuMemcpyDtoH", Code: cuda.ErrorLaunchFailed}
	err = d.noteFault(trap)
	var f *FaultError
	require.ErrorAs(t, err, &f)
	require.ErrorIs(t, err, ErrDeviceFaulted)
	require.ErrorIs(t, err, trap)
	require.Equal(t, sum.name(), strings.SplitN(f.Last, " ", 2)[0])
	require.Contains(t, f.Last, "declared at ")
	for _, want := range []string{"a kernel faulted on CPU", "CUDA_ERROR_LAUNCH_FAILED", sum.name(), "Close it"} {
		require.Contains(t, err.Error(), want)
	}

	// The first fault stays; later ones return it.
	again := d.noteFault(&cuda.Error{Call: "cuCtxSynchronize", Code: cuda.ErrorIllegalAddress})
	require.Same(t, f, again)

	// Every later call fails with it, prefixed once.
	_, err = Alloc[int32](d, 4)
	require.ErrorIs(t, err, ErrDeviceFaulted)
	require.Equal(t, 1, strings.Count(err.Error(), "gocccl: "), err.Error())
	err = sum.Run(nil, in, out, 0)
	require.ErrorIs(t, err, ErrDeviceFaulted)
	_, err = in.ToHost()
	require.ErrorIs(t, err, ErrDeviceFaulted)
	_, err = sum.TempStorageBytes(d, 10)
	require.ErrorIs(t, err, ErrDeviceFaulted)
	require.True(t, strings.HasPrefix(err.Error(), "gocccl: "+sum.name()+": a kernel faulted"), err.Error())
	_, err = d.NewStream()
	require.ErrorIs(t, err, ErrDeviceFaulted)
	require.False(t, errors.Is(err, ErrDeviceClosed))
}

func TestStickyCodes(t *testing.T) {
	for code, sticky := range map[cuda.Result]bool{
		cuda.ErrorLaunchFailed: true, cuda.ErrorIllegalAddress: true, cuda.ErrorIllegalInstruction: true,
		cuda.ErrorMisalignedAddress: true, cuda.ErrorAssert: true, cuda.ErrorLaunchTimeout: true,
		cuda.ErrorHardwareStackError: true, cuda.ErrorInvalidAddressSpace: true, cuda.ErrorInvalidPC: true,
		cuda.ErrorOutOfMemory: false, cuda.ErrorInvalidValue: false, cuda.ErrorLaunchOutOfResources: false,
		cuda.ErrorNotSupported: false, cuda.ErrorInvalidPtx: false,
	} {
		require.Equal(t, sticky, (&cuda.Error{Code: code}).Sticky(), "%v", code)
	}
}
