package selecttest

import (
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// suite is one element type's compaction instances.
type suite[T any] struct {
	name         string
	tile         int // GPU tile: 128 threads × clamp(64/size, 1, 16)
	sel          *runtime.SelectOp[T]
	part         *runtime.PartitionOp[T]
	three        *runtime.ThreeWayPartitionOp[T]
	uniq         *runtime.UniqueOp[T]
	rle          *runtime.RunLengthEncodeOp[T]
	keep, second func(T) bool
	eq           func(T, T) bool
	gen          func(*rand.Rand) T
	nan          T // a value unequal to itself under eq, if the type has one
	hasNaN       bool
}

func newSuite[T any](name string, sel *runtime.SelectOp[T], part *runtime.PartitionOp[T], three *runtime.ThreeWayPartitionOp[T],
	uniq *runtime.UniqueOp[T], rle *runtime.RunLengthEncodeOp[T], keep, second func(T) bool, eq func(T, T) bool, gen func(*rand.Rand) T) *suite[T] {
	var zero T
	size := int(unsafe.Sizeof(zero))
	return &suite[T]{name: name, tile: 128 * min(16, max(1, 64/size)), sel: sel, part: part, three: three, uniq: uniq, rle: rle,
		keep: keep, second: second, eq: eq, gen: gen}
}

// typeCase hides a suite's element type.
type typeCase struct {
	name string
	tile int
	run  func(t *testing.T, r *rand.Rand, dut, oracle *runtime.Device, n int)
}

func (s *suite[T]) typeCase() typeCase { return typeCase{s.name, s.tile, s.run} }

func typeCases() []typeCase {
	u8 := newSuite("uint8", SelectUint8, PartitionUint8, ThreeWayUint8, UniqueUint8, RLEUint8, KeepUint8, SecondUint8, EqUint8,
		func(r *rand.Rand) uint8 { return uint8(r.Uint32()) })
	i32 := newSuite("int32", SelectInt32, PartitionInt32, ThreeWayInt32, UniqueInt32, RLEInt32, KeepInt32, SecondInt32, EqInt32,
		func(r *rand.Rand) int32 { return int32(r.Uint32()) })
	u32 := newSuite("uint32", SelectUint32, PartitionUint32, ThreeWayUint32, UniqueUint32, RLEUint32, KeepUint32, SecondUint32, EqUint32,
		func(r *rand.Rand) uint32 { return r.Uint32() })
	i64 := newSuite("int64", SelectInt64, PartitionInt64, ThreeWayInt64, UniqueInt64, RLEInt64, KeepInt64, SecondInt64, EqInt64,
		func(r *rand.Rand) int64 { return int64(r.Uint64()) })
	f32 := newSuite("float32", SelectFloat32, PartitionFloat32, ThreeWayFloat32, UniqueFloat32, RLEFloat32, KeepFloat32, SecondFloat32, EqFloat32,
		func(r *rand.Rand) float32 { return float32(r.NormFloat64()) })
	f32.nan, f32.hasNaN = float32(math.NaN()), true
	f64 := newSuite("float64", SelectFloat64, PartitionFloat64, ThreeWayFloat64, UniqueFloat64, RLEFloat64, KeepFloat64, SecondFloat64, EqFloat64,
		func(r *rand.Rand) float64 { return r.NormFloat64() })
	f64.nan, f64.hasNaN = math.NaN(), true
	item := newSuite("Item", SelectItem, PartitionItem, ThreeWayItem, UniqueItem, RLEItem, KeepItem, SecondItem, EqItem,
		func(r *rand.Rand) Item { return Item{Key: r.Uint32(), Weight: float32(r.NormFloat64())} })
	return []typeCase{u8.typeCase(), i32.typeCase(), u32.typeCase(), i64.typeCase(), f32.typeCase(), f64.typeCase(), item.typeCase()}
}

// inputs returns the inputs a suite is checked on at length n: random
// values, runs of 1 to 12 equal values (with NaNs among them for float
// types), one long run, and all rejected.
func (s *suite[T]) inputs(r *rand.Rand, n int) map[string][]T {
	random, runs, same := make([]T, n), make([]T, n), make([]T, n)
	for i := range random {
		random[i] = s.gen(r)
	}
	for i := 0; i < n; {
		v := s.gen(r)
		if s.hasNaN && r.IntN(8) == 0 {
			v = s.nan
		}
		for k := 1 + r.IntN(12); k > 0 && i < n; k-- {
			runs[i] = v
			i++
		}
	}
	v := s.gen(r)
	for i := range same {
		same[i] = v
	}
	return map[string][]T{"random": random, "runs": runs, "one run": same}
}

func (s *suite[T]) run(t *testing.T, r *rand.Rand, dut, oracle *runtime.Device, n int) {
	for name, xs := range s.inputs(r, n) {
		t.Run(name, func(t *testing.T) {
			t.Run("Select", func(t *testing.T) {
				got, k := selectOn(t, dut, s.sel, xs)
				want, wk := selectOn(t, oracle, s.sel, xs)
				require.Equal(t, wk, k)
				devcheck.RequireBitEqual(t, want, got, "device vs CPU backend")
				var loop []T
				for _, x := range xs {
					if s.keep(x) {
						loop = append(loop, x)
					}
				}
				devcheck.RequireBitEqual(t, loop, want[:wk], "CPU backend vs loop")
			})
			t.Run("Partition", func(t *testing.T) {
				got, k := partitionOn(t, dut, s.part, xs)
				want, wk := partitionOn(t, oracle, s.part, xs)
				require.Equal(t, wk, k)
				devcheck.RequireBitEqual(t, want, got, "device vs CPU backend")
			})
			t.Run("ThreeWayPartition", func(t *testing.T) {
				got, k := threeWayOn(t, dut, s.three, xs)
				want, wk := threeWayOn(t, oracle, s.three, xs)
				require.Equal(t, wk, k)
				for i := range got {
					devcheck.RequireBitEqual(t, want[i], got[i], []string{"first", "second", "rest"}[i]+": device vs CPU backend")
				}
			})
			t.Run("Unique", func(t *testing.T) {
				got, k := uniqueOn(t, dut, s.uniq, xs)
				want, wk := uniqueOn(t, oracle, s.uniq, xs)
				require.Equal(t, wk, k)
				devcheck.RequireBitEqual(t, want, got, "device vs CPU backend")
				loop := 0
				for i := range xs {
					if i == 0 || !s.eq(xs[i-1], xs[i]) {
						loop++
					}
				}
				require.Equal(t, int64(loop), wk)
			})
			t.Run("RunLengthEncode", func(t *testing.T) {
				gu, gl, k := rleOn(t, dut, s.rle, xs)
				wu, wl, wk := rleOn(t, oracle, s.rle, xs)
				require.Equal(t, wk, k)
				devcheck.RequireBitEqual(t, wu, gu, "runs: device vs CPU backend")
				devcheck.RequireBitEqual(t, wl, gl, "lengths: device vs CPU backend")
				var sum int64
				for _, l := range wl[:wk] {
					sum += l
				}
				require.Equal(t, int64(n), sum, "run lengths add up to n")
			})
			t.Run("NonTrivialRuns", func(t *testing.T) {
				go_, gl, k := nonTrivialOn(t, dut, s.rle, xs)
				wo, wl, wk := nonTrivialOn(t, oracle, s.rle, xs)
				require.Equal(t, wk, k)
				devcheck.RequireBitEqual(t, wo, go_, "offsets: device vs CPU backend")
				devcheck.RequireBitEqual(t, wl, gl, "lengths: device vs CPU backend")
			})
		})
	}
}

// TestGPUMatchesCPU runs every instance on the GPU and on the CPU backend
// over fresh random inputs and requires the same outputs, poison included.
func TestGPUMatchesCPU(t *testing.T) {
	gpu := devcheck.OpenGPU(t)
	cpu := devcheck.OpenCPU(t)
	t.Logf("device: %s", gpu)
	r := devcheck.Rand(t)
	for _, tc := range typeCases() {
		for _, n := range sizes(tc.tile) {
			if testing.Short() && n > 1<<20 {
				continue
			}
			t.Run(tc.name+"/n="+devcheck.SizeName(n), func(t *testing.T) { tc.run(t, r, gpu, cpu, n) })
		}
	}
	target, reason, ok := gpu.LoadedImage("github.com/gocccl/gocccl/conformance/devicetest/select")
	require.True(t, ok)
	t.Logf("loaded image %s: %s", target, reason)
}

// TestCPUBackend checks the CPU backend, the oracle of the GPU tests,
// against sequential loops; it runs everywhere.
func TestCPUBackend(t *testing.T) {
	cpu := devcheck.OpenCPU(t)
	r := devcheck.Rand(t)
	for _, tc := range typeCases() {
		for _, n := range sizes(tc.tile) {
			if n > 1<<20 {
				continue
			}
			t.Run(tc.name+"/n="+devcheck.SizeName(n), func(t *testing.T) { tc.run(t, r, cpu, cpu, n) })
		}
	}
}

// TestUniqueByKey compares the GPU with the CPU backend for several key and
// value types, a struct among each, and the CPU backend with a loop.
func TestUniqueByKey(t *testing.T) {
	devs := devices(t)
	r := devcheck.Rand(t)
	// 7167–7169 and 3 × 7168: the edges of the 4-byte instances' sm_90
	// tile (512 × 14), the grid's last block full and not.
	for _, n := range []int{0, 1, 1023, 1024, 1025, 2047, 2048, 2049, 7167, 7168, 7169, 3 * 7168, 65537, 1_000_003} {
		t.Run("n="+devcheck.SizeName(n), func(t *testing.T) {
			runKeys := func(gen func() uint32) []uint32 {
				ks := make([]uint32, n)
				for i := 0; i < n; {
					v := gen()
					for k := 1 + r.IntN(9); k > 0 && i < n; k-- {
						ks[i] = v
						i++
					}
				}
				return ks
			}
			ku := runKeys(r.Uint32)
			vf := make([]float32, n)
			kf := make([]float64, n)
			vi := make([]int64, n)
			ki := make([]Item, n)
			k8 := make([]uint8, n)
			vitem := make([]Item, n)
			for i := range vf {
				vf[i], vi[i] = float32(r.NormFloat64()), int64(r.Uint64())
				kf[i] = float64(ku[i] % 1000)
				if ku[i]%13 == 0 {
					kf[i] = math.NaN()
				}
				ki[i] = Item{Key: ku[i], Weight: float32(i)}
				k8[i] = uint8(ku[i] >> 29)
				vitem[i] = Item{Key: uint32(i), Weight: vf[i]}
			}
			checkByKey(t, devs, UniqueByKeyUint32Float32, EqUint32, ku, vf)
			checkByKey(t, devs, UniqueByKeyFloat64Int64, EqFloat64, kf, vi)
			checkByKey(t, devs, UniqueByKeyItemUint8, EqItem, ki, k8)
			checkByKey(t, devs, UniqueByKeyUint8Item, EqUint8, k8, vitem)
		})
	}
}

func checkByKey[K, V any](t *testing.T, devs []*runtime.Device, op *runtime.UniqueByKeyOp[K, V], eq func(K, K) bool, keys []K, values []V) {
	t.Helper()
	var wantK []K
	var wantV []V
	for i := range keys {
		if i == 0 || !eq(keys[i-1], keys[i]) {
			wantK, wantV = append(wantK, keys[i]), append(wantV, values[i])
		}
	}
	for _, d := range devs {
		gk, gv, k := uniqueByKeyOn(t, d, op, keys, values)
		require.Equal(t, int64(len(wantK)), k, "%s", d)
		devcheck.RequireBitEqual(t, wantK, gk[:k], d.String()+": keys vs loop")
		devcheck.RequireBitEqual(t, wantV, gv[:k], d.String()+": values vs loop")
		devcheck.RequireBitEqual(t, devcheck.Poison[K](len(keys)-int(k)), gk[k:], d.String()+": keys past the count")
		devcheck.RequireBitEqual(t, devcheck.Poison[V](len(keys)-int(k)), gv[k:], d.String()+": values past the count")
	}
}

// TestSelectBeyond2e31 selects from 2^31 + 4099 bytes on the GPU, to prove
// 64-bit indexing end to end (about 4.3 GB of device memory).
func TestSelectBeyond2e31(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the 2^31-element selection")
	}
	gpu := devcheck.OpenGPU(t)
	const n = 1<<31 + 4099
	xs := make([]uint8, n)
	for i := range xs {
		xs[i] = uint8(uint32(i) * 2654435761 >> 24)
	}
	in, err := runtime.FromHost(gpu, xs)
	require.NoError(t, err)
	defer in.Free()
	out, err := runtime.Alloc[uint8](gpu, n)
	require.NoError(t, err)
	defer out.Free()
	count, err := runtime.FromHost(gpu, []int64{-1})
	require.NoError(t, err)
	defer count.Free()
	require.NoError(t, SelectUint8.Run(nil, in, out, count))
	got, err := out.ToHost()
	require.NoError(t, err)
	k, err := count.ToHost()
	require.NoError(t, err)
	j := 0
	for _, x := range xs {
		if KeepUint8(x) {
			if got[j] != x {
				t.Fatalf("selected item %d: got %d, want %d", j, got[j], x)
			}
			j++
		}
	}
	require.Equal(t, int64(j), k[0])
	require.Greater(t, j, 1<<30, "the selection itself passes 2^30")
}

// TestTimings prints the TSV rows of bench/cub/select.cu, timed through the
// Go API with CUDA events, when GOCCCL_BENCH is set: the lead's benchmark
// table joins them with CUB's rows.
func TestTimings(t *testing.T) {
	if os.Getenv("GOCCCL_BENCH") == "" {
		t.Skip("set GOCCCL_BENCH=1 to time the compactions")
	}
	gpu := devcheck.OpenGPU(t)
	require.NoError(t, Timings(gpu, 20, os.Stdout))
}

// Test helpers.

// sizes are 0, 1, around one, and three tiles of the generic policy (tile:
// 128 threads × clamp(64/size, 1, 16)) and, for 4-byte items, of sm_90's
// own tiles (internal/algo/select.go, rle.go): 384 × 17 (Select, Partition,
// Unique), 256 × 23 (ThreeWayPartition), 512 × 14 (UniqueByKey) and
// 192 × 14 (RunLengthEncode; 256 × 13 before 2026-12-02's third session,
// kept); then 65537, 10^6+3 and 2^26.
var sizes = func(tile int) []int {
	ns := []int{0, 1, tile - 1, tile, tile + 1, 3 * tile}
	if tile == 128*16 {
		for _, t := range []int{384 * 17, 256 * 23, 512 * 14, 192 * 14, 256 * 13} {
			ns = append(ns, t-1, t, t+1, 3*t)
		}
	}
	slices.Sort(ns)
	return append(slices.Compact(ns), 65537, 1_000_003, 1<<26)
}

func devices(t *testing.T) []*runtime.Device {
	devs := []*runtime.Device{devcheck.OpenCPU(t)}
	if d, err := runtime.OpenGPU(0); err == nil {
		t.Cleanup(func() { d.Close() })
		devs = append(devs, d)
	} else {
		t.Logf("no CUDA GPU, CPU backend only: %v", err)
	}
	return devs
}
