package cuda

import (
	"encoding/binary"
	"math"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestArgsZeroValue(t *testing.T) {
	var a Args
	assert.Equal(t, 0, a.Len())
	assert.NoError(t, a.Err())
}

func TestArgsAlignsEachArgument(t *testing.T) {
	var a Args
	a.Int32(-2)
	a.Int64(-3)
	require.NoError(t, a.Err())
	assert.Equal(t, 16, a.Len(), "the int64 goes at offset 8")
	assert.Equal(t, uint32(0xfffffffe), binary.LittleEndian.Uint32(a.buf[0:]))
	assert.Equal(t, []byte{0, 0, 0, 0}, a.buf[4:8], "padding is zero")
	assert.Equal(t, uint64(math.MaxUint64-2), binary.LittleEndian.Uint64(a.buf[8:]))
}

func TestArgsNoTailPadding(t *testing.T) {
	var a Args
	a.Int64(1)
	a.Int32(2)
	assert.Equal(t, 12, a.Len(), "cuLaunchKernel wants the size without tail padding")
}

func TestArgsEncodings(t *testing.T) {
	var a Args
	a.Ptr(0x1122334455667788) // 0
	a.Uint32(0xdeadbeef)      // 8
	a.Float32(1.5)            // 12
	a.Float64(-2.25)          // 16
	a.Uint64(7)               // 24
	require.NoError(t, a.Err())
	require.Equal(t, 32, a.Len())
	assert.Equal(t, uint64(0x1122334455667788), binary.LittleEndian.Uint64(a.buf[0:]))
	assert.Equal(t, uint32(0xdeadbeef), binary.LittleEndian.Uint32(a.buf[8:]))
	assert.Equal(t, float32(1.5), math.Float32frombits(binary.LittleEndian.Uint32(a.buf[12:])))
	assert.Equal(t, -2.25, math.Float64frombits(binary.LittleEndian.Uint64(a.buf[16:])))
	assert.Equal(t, uint64(7), binary.LittleEndian.Uint64(a.buf[24:]))
}

func TestArgsValueAlign16(t *testing.T) {
	type vec4 struct{ X, Y, Z, W float32 }
	v := vec4{1, 2, 3, 4}
	var a Args
	a.Int32(9)
	a.Value(unsafe.Pointer(&v), int(unsafe.Sizeof(v)), 16)
	require.NoError(t, a.Err())
	assert.Equal(t, 32, a.Len(), "the value goes at offset 16")
	assert.Equal(t, make([]byte, 12), a.buf[4:16])
	assert.Equal(t, float32(3), math.Float32frombits(binary.LittleEndian.Uint32(a.buf[16+8:])))
}

// TestArgsProbeLayout checks the layout of the probe kernel's parameters
// (see gpu_test.go) against the offsets ptxas gave them in a cubin
// (EIATTR_KPARAM_INFO) and its parameter size (EIATTR_CBANK_PARAM_SIZE 0x44).
func TestArgsProbeLayout(t *testing.T) {
	a, _ := probeArgs(0)
	require.NoError(t, a.Err())
	assert.Equal(t, 0x44, a.Len())
	assert.Equal(t, int8(-5), int8(a.buf[8]))
	assert.Equal(t, int64(-1234567890123), int64(binary.LittleEndian.Uint64(a.buf[0x10:])))
	assert.Equal(t, float32(0.25), math.Float32frombits(binary.LittleEndian.Uint32(a.buf[0x18:])))
	assert.Equal(t, math.Pi, math.Float64frombits(binary.LittleEndian.Uint64(a.buf[0x20:])))
	assert.Equal(t, int32(11), int32(binary.LittleEndian.Uint32(a.buf[0x30:])))
	assert.Equal(t, int32(-12), int32(binary.LittleEndian.Uint32(a.buf[0x34:])))
	assert.Equal(t, int32(77), int32(binary.LittleEndian.Uint32(a.buf[0x40:])))
}

// pair matches struct __align__(16) Pair { int x; int y; } of the probe
// kernel: 16 bytes, aligned to 16.
type pair struct {
	X, Y int32
	_    [8]byte
}

// probeArgs returns the parameters of
// probe(long long *out, char c, long long i64, float f32, double f64, Pair p, int i32)
// and the values the kernel writes to out[0:7].
func probeArgs(out DevicePtr) (*Args, [7]int64) {
	c := int8(-5)
	p := pair{X: 11, Y: -12}
	a := new(Args)
	a.Ptr(out)
	a.Value(unsafe.Pointer(&c), 1, 1)
	a.Int64(-1234567890123)
	a.Float32(0.25)
	a.Float64(math.Pi)
	a.Value(unsafe.Pointer(&p), int(unsafe.Sizeof(p)), 16)
	a.Int32(77)
	want := [7]int64{-5, -1234567890123, int64(math.Float32bits(0.25)), int64(math.Float64bits(math.Pi)), 11, -12, 77}
	return a, want
}

func TestArgsOverflow(t *testing.T) {
	var a Args
	for range argsLimit / 4 {
		a.Int32(1)
	}
	require.NoError(t, a.Err(), "exactly the limit fits")
	assert.Equal(t, argsLimit, a.Len())

	a.Int32(2)
	require.Error(t, a.Err())
	assert.Contains(t, a.Err().Error(), "4096")
	assert.Equal(t, argsLimit, a.Len())

	first := a.Err()
	a.Value(nil, 1, 3)
	assert.Same(t, first, a.Err(), "the first failure is kept")

	a.Reset()
	assert.NoError(t, a.Err())
	assert.Equal(t, 0, a.Len())
}

func TestArgsOverflowByAlignment(t *testing.T) {
	var a Args
	for range argsLimit/4 - 1 {
		a.Int32(1)
	}
	a.Int64(2) // would start at 4096
	assert.Error(t, a.Err())
}

func TestArgsValueRejectsBadAlignment(t *testing.T) {
	var v int32
	for _, align := range []int{0, -4, 3, 12, 8192} {
		var a Args
		a.Value(unsafe.Pointer(&v), 4, align)
		assert.Error(t, a.Err(), "align %d", align)
		assert.Equal(t, 0, a.Len())
	}
	var a Args
	a.Value(unsafe.Pointer(&v), -1, 4)
	assert.Error(t, a.Err(), "negative size")
}

func TestArgsValueEmpty(t *testing.T) {
	var a Args
	a.Int32(1)
	a.Value(nil, 0, 8)
	require.NoError(t, a.Err())
	assert.Equal(t, 8, a.Len())
}

func TestArgsResetClearsPadding(t *testing.T) {
	var a Args
	a.Uint64(math.MaxUint64)
	a.Uint64(math.MaxUint64)
	a.Reset()
	a.Int32(1)
	a.Int64(2)
	assert.Equal(t, []byte{0, 0, 0, 0}, a.buf[4:8])
}

func TestArgsDoNotAllocate(t *testing.T) {
	type vec struct{ X, Y float64 }
	v := vec{1, 2}
	var reused Args
	build := func(a *Args) {
		a.Ptr(0x1000)
		a.Ptr(0x2000)
		a.Int64(1 << 40)
		a.Int32(3)
		a.Uint32(4)
		a.Uint64(5)
		a.Float32(6)
		a.Float64(7)
		a.Value(unsafe.Pointer(&v), int(unsafe.Sizeof(v)), 8)
	}
	allocs := testing.AllocsPerRun(100, func() {
		reused.Reset()
		build(&reused)
	})
	assert.Zero(t, allocs, "reused Args")
	n := 0
	allocs = testing.AllocsPerRun(100, func() {
		var a Args
		build(&a)
		n = a.Len()
	})
	assert.Zero(t, allocs, "Args on the stack")
	assert.Equal(t, 72, n)
}

func TestLaunchKernelReportsArgsError(t *testing.T) {
	var a Args
	a.Value(nil, 1, 3)
	err := new(Context).LaunchKernel(0, Dim3{X: 1}, Dim3{X: 1}, 0, 0, &a)
	assert.Same(t, a.Err(), err)
}

func TestDim3Norm(t *testing.T) {
	assert.Equal(t, Dim3{5, 1, 1}, Dim3{X: 5}.norm())
	assert.Equal(t, Dim3{5, 2, 3}, Dim3{5, 2, 3}.norm())
	assert.Equal(t, Dim3{0, 1, 1}, Dim3{}.norm())
}

func TestArgsTruncate(t *testing.T) {
	var a Args
	a.Int32(1)
	n := a.Len()
	a.Float64(2)
	assert.Equal(t, 16, a.Len())
	a.Truncate(n)
	assert.Equal(t, 4, a.Len())
	a.Uint32(3)
	assert.Equal(t, 8, a.Len(), "adds after the kept bytes")
	assert.Equal(t, uint32(3), binary.LittleEndian.Uint32(a.buf[4:]))
	a.Truncate(100) // past the end: ignored
	assert.Equal(t, 8, a.Len())
}
