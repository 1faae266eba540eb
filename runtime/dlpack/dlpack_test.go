package dlpack

import (
	"math/rand/v2"
	goruntime "runtime"
	"testing"
	"time"
	"unsafe"
	"weak"

	"github.com/gocccl/gocccl/half"
	"github.com/gocccl/gocccl/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// devices returns a CPU device and, where one is present, GPU 0.
func devices(t *testing.T) []*runtime.Device {
	cpu, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	t.Cleanup(func() { cpu.Close() })
	ds := []*runtime.Device{cpu}
	if g, err := runtime.OpenGPU(0); err == nil {
		t.Cleanup(func() { g.Close() })
		ds = append(ds, g)
	}
	return ds
}

// TestRoundTrip: a Slice exported and imported again is the same memory,
// on each backend; the tensor describes it as DLPack says.
func TestRoundTrip(t *testing.T) {
	for _, d := range devices(t) {
		r := rand.New(rand.NewPCG(rand.Uint64(), 40))
		xs := make([]float64, 1003)
		for i := range xs {
			xs[i] = r.NormFloat64()
		}
		s, err := runtime.FromHost(d, xs)
		require.NoError(t, err)
		tensor, err := Export(s)
		require.NoError(t, err, "%s", d)
		v, err := view(tensor)
		require.NoError(t, err)
		typ, id := deviceOf(d)
		assert.Equal(t, typ, v.deviceType)
		assert.Equal(t, id, v.deviceID)
		assert.Equal(t, dtype{2, 64, 1}, v.dtype)
		assert.Equal(t, []int64{1003}, v.shape)
		assert.Nil(t, v.strides)
		addr, _ := s.Address()
		assert.Equal(t, addr, v.data)

		back, err := Import[float64](d, tensor)
		require.NoError(t, err, "%s", d)
		assert.True(t, back.Foreign())
		require.NoError(t, back.Range(0, 1).Fill(nil, 42))
		got, err := s.ToHost()
		require.NoError(t, err)
		assert.Equal(t, 42.0, got[0], "%s: a write through the import reaches the export", d)
		assert.Equal(t, xs[1:], got[1:])
		require.NoError(t, Release(tensor))
		require.NoError(t, s.Free())
	}
}

// TestExportKeepsSlice: the tensor keeps its Slice reachable until the
// deleter runs, and no longer.
func TestExportKeepsSlice(t *testing.T) {
	d := devices(t)[0]
	s, err := runtime.Alloc[int32](d, 64)
	require.NoError(t, err)
	tensor, err := Export(s)
	require.NoError(t, err)
	w := weak.Make(s)
	s = nil
	for range 5 {
		goruntime.GC()
	}
	require.NotNil(t, w.Value(), "collected while a consumer holds the tensor")
	require.NoError(t, Release(tensor))
	gone := false
	for range 20 {
		goruntime.GC()
		if w.Value() == nil {
			gone = true
			break
		}
		time.Sleep(time.Millisecond)
	}
	assert.True(t, gone, "the deleter did not let the Slice go")
}

// TestImportChecks: every mismatch is refused with what is wrong.
func TestImportChecks(t *testing.T) {
	d := devices(t)[0]
	s, err := runtime.Alloc[int64](d, 16)
	require.NoError(t, err)
	defer s.Free()
	require.NoError(t, s.Fill(nil, -1))
	fresh := func() unsafe.Pointer {
		tensor, err := Export(s)
		require.NoError(t, err)
		t.Cleanup(func() { Release(tensor) })
		return tensor
	}
	_, err = Import[int32](d, fresh())
	assert.ErrorContains(t, err, "the tensor holds int64, a Slice[int32] needs int32")
	_, err = Import[uint64](d, fresh())
	assert.ErrorContains(t, err, "needs uint64")
	tensor := fresh()
	setField(tensor, "device_type", deviceCUDA)
	_, err = Import[int64](d, tensor)
	assert.ErrorContains(t, err, "the tensor is on CUDA device 0, the device is the CPU")
	tensor = fresh()
	setField(tensor, "device_type", 13)
	_, err = Import[int64](d, tensor)
	assert.ErrorContains(t, err, "DLPack device type 13")
	tensor = fresh()
	setField(tensor, "byte_offset", 4)
	_, err = Import[int64](d, tensor)
	assert.ErrorContains(t, err, "not aligned for int64")
	tensor = fresh()
	setField(tensor, "ndim", 100)
	_, err = Import[int64](d, tensor)
	assert.ErrorContains(t, err, "ndim is out of range")
	_, err = Import[int64](d, nil)
	assert.ErrorContains(t, err, "nil tensor")
	// An offset: 15 elements from the second of the 16.
	tensor, err = Export(s.Range(0, 15))
	require.NoError(t, err)
	defer Release(tensor)
	setField(tensor, "byte_offset", 8)
	v, err := Import[int64](d, tensor)
	require.NoError(t, err)
	assert.Equal(t, 15, v.Len(), "the shape, not the offset, gives the length")
	require.NoError(t, v.Fill(nil, 7))
	got, err := s.ToHost()
	require.NoError(t, err)
	assert.NotEqual(t, int64(7), got[0], "the offset skips the first element")
	assert.Equal(t, int64(7), got[15])

	type pair struct{ A, B int32 }
	ps, err := runtime.Alloc[pair](d, 2)
	require.NoError(t, err)
	_, err = Export(ps)
	assert.ErrorContains(t, err, "has no DLPack data type")
	assert.Error(t, Release(nil))
}

func TestCompactLen(t *testing.T) {
	for _, c := range []struct {
		shape, strides []int64
		n              int
		err            string
	}{
		{nil, nil, 1, ""},
		{[]int64{3, 4}, nil, 12, ""},
		{[]int64{3, 4}, []int64{4, 1}, 12, ""},
		{[]int64{3, 1}, []int64{1, 7}, 3, ""},
		{[]int64{3, 4}, []int64{1, 3}, 0, "not compact"},
		{[]int64{0, 4}, nil, 0, ""},
		{[]int64{-1}, nil, 0, "negative size"},
	} {
		n, err := compactLen(c.shape, c.strides)
		if c.err != "" {
			assert.ErrorContains(t, err, c.err, "%v %v", c.shape, c.strides)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, c.n, n, "%v %v", c.shape, c.strides)
	}
}

// TestComplexDtype: complex64 and complex128 are DLPack's kDLComplex (code
// 5) of 64 and 128 bits, and round-trip through a tensor.
func TestComplexDtype(t *testing.T) {
	c64, err := dtypeOf[complex64]()
	require.NoError(t, err)
	assert.Equal(t, dtype{5, 64, 1}, c64)
	c128, err := dtypeOf[complex128]()
	require.NoError(t, err)
	assert.Equal(t, dtype{5, 128, 1}, c128)
	for _, d := range devices(t) {
		xs := []complex128{1 + 2i, -3i, 4}
		s, err := runtime.FromHost(d, xs)
		require.NoError(t, err)
		tensor, err := Export(s)
		require.NoError(t, err, "%s", d)
		v, err := view(tensor)
		require.NoError(t, err)
		assert.Equal(t, c128, v.dtype)
		back, err := Import[complex128](d, tensor)
		require.NoError(t, err, "%s", d)
		got, err := back.ToHost()
		require.NoError(t, err)
		assert.Equal(t, xs, got)
		_, err = Import[complex64](d, tensor)
		assert.Error(t, err, "complex128 data imported as complex64")
		require.NoError(t, Release(tensor))
		require.NoError(t, s.Free())
	}
}

// TestHalfDtype: half.Float16 is kDLFloat of 16 bits and half.BFloat16
// kDLBfloat (code 4) of 16 bits, not uint16; both round-trip through a
// tensor, and neither imports as the other or as uint16.
func TestHalfDtype(t *testing.T) {
	f16, err := dtypeOf[half.Float16]()
	require.NoError(t, err)
	assert.Equal(t, dtype{2, 16, 1}, f16)
	bf16, err := dtypeOf[half.BFloat16]()
	require.NoError(t, err)
	assert.Equal(t, dtype{4, 16, 1}, bf16)
	assert.Equal(t, "bfloat16", bf16.String())
	u16, err := dtypeOf[uint16]()
	require.NoError(t, err)
	assert.Equal(t, dtype{1, 16, 1}, u16)
	for _, d := range devices(t) {
		xs := []half.BFloat16{half.BFloat16FromFloat32(1.5), half.BFloat16FromFloat32(-3), half.NaNB16}
		s, err := runtime.FromHost(d, xs)
		require.NoError(t, err)
		tensor, err := Export(s)
		require.NoError(t, err, "%s", d)
		v, err := view(tensor)
		require.NoError(t, err)
		assert.Equal(t, bf16, v.dtype)
		back, err := Import[half.BFloat16](d, tensor)
		require.NoError(t, err, "%s", d)
		got, err := back.ToHost()
		require.NoError(t, err)
		assert.Equal(t, xs, got)
		_, err = Import[half.Float16](d, tensor)
		assert.Error(t, err, "bfloat16 data imported as float16")
		_, err = Import[uint16](d, tensor)
		assert.Error(t, err, "bfloat16 data imported as uint16")
		require.NoError(t, Release(tensor))
		require.NoError(t, s.Free())
	}
}
