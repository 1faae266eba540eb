// Package devcheck holds what the GPU-against-CPU conformance tests under
// conformance/devicetest share: devices closed when the test ends (the GPU's
// skipping the test where there is none), a random source whose seed is
// logged, uploads and allocations freed when the test ends, poisoned host
// buffers, downloads, a comparison byte for byte, and keys' ordered bits as
// the radix sorts and top-k order them (keys.go).
package devcheck

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/runtime"
)

// OpenCPU opens the CPU backend, closed (and its Close checked) when the
// test ends.
func OpenCPU(t testing.TB) *runtime.Device {
	t.Helper()
	d, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, d.Close()) })
	return d
}

// OpenGPU opens GPU 0, closed (and its Close checked) when the test ends; it
// skips the test when there is no CUDA GPU.
func OpenGPU(t testing.TB) *runtime.Device {
	t.Helper()
	d, err := runtime.OpenGPU(0)
	if err != nil {
		t.Skipf("no CUDA GPU: %v", err)
	}
	t.Cleanup(func() { require.NoError(t, d.Close()) })
	return d
}

// Rand returns a random source seeded from the clock, logging the seed so
// that a failure can be replayed.
func Rand(t testing.TB) *rand.Rand {
	t.Helper()
	seed := uint64(time.Now().UnixNano())
	t.Logf("random seed %d", seed)
	return rand.New(rand.NewPCG(seed, seed>>7|1))
}

// SizeName names a subtest by its input length: "2^26" for the largest
// size the families check on a GPU, else the number.
func SizeName(n int) string {
	if n == 1<<26 {
		return "2^26"
	}
	return strconv.Itoa(n)
}

// Upload copies xs to a new Slice on d, freed when the test ends.
func Upload[T any](t testing.TB, d *runtime.Device, xs []T) *runtime.Slice[T] {
	t.Helper()
	s, err := runtime.FromHost(d, xs)
	require.NoError(t, err)
	t.Cleanup(func() { s.Free() })
	return s
}

// Alloc returns a new Slice of n elements on d, freed when the test ends.
func Alloc[T any](t testing.TB, d *runtime.Device, n int) *runtime.Slice[T] {
	t.Helper()
	s, err := runtime.Alloc[T](d, n)
	require.NoError(t, err)
	t.Cleanup(func() { s.Free() })
	return s
}

// Poison returns n values whose bytes are all 0xAB: an output that starts
// as poison shows which elements a call wrote.
func Poison[T any](n int) []T {
	s := make([]T, n)
	if n > 0 {
		b := unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), n*int(unsafe.Sizeof(s[0])))
		for i := range b {
			b[i] = 0xAB
		}
	}
	return s
}

// Download returns a host copy of s.
func Download[T any](t testing.TB, s *runtime.Slice[T]) []T {
	t.Helper()
	xs, err := s.ToHost()
	require.NoError(t, err)
	return xs
}

// RequireBitEqual fails t, naming the first element that differs, unless
// want and got have the same length and the same bytes (so -0 differs from
// +0, and NaNs compare by payload).
func RequireBitEqual[T any](t testing.TB, want, got []T, what string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d elements, want %d", what, len(got), len(want))
		return
	}
	if len(want) == 0 {
		return
	}
	size := int(unsafe.Sizeof(want[0]))
	wb := unsafe.Slice((*byte)(unsafe.Pointer(&want[0])), len(want)*size)
	gb := unsafe.Slice((*byte)(unsafe.Pointer(&got[0])), len(got)*size)
	for i := range wb {
		if wb[i] != gb[i] {
			k := i / size
			t.Fatalf("%s: element %d of %d differs: want %v, got %v", what, k, len(want), want[k], got[k])
			return
		}
	}
}
