package mergesort

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/arch"
	"github.com/gocccl/gocccl/runtime"
)

// devices returns the CPU backend and, when there is one, the GPU: every
// case runs on each and is compared with slices.SortStableFunc, so the GPU
// matches the CPU backend and both match the oracle.
func devices(t *testing.T) []*runtime.Device {
	t.Helper()
	cpu, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	t.Cleanup(func() { cpu.Close() })
	ds := []*runtime.Device{cpu}
	if gpu, err := runtime.OpenGPU(0); err == nil {
		t.Cleanup(func() { gpu.Close() })
		ds = append(ds, gpu)
	} else {
		t.Logf("no CUDA GPU, CPU backend only: %v", err)
	}
	return ds
}

// patterns give key i of n as a raw 64-bit value that each suite maps to
// its key type.
var patterns = []struct {
	name string
	gen  func(r *rand.Rand, i, n int) uint64
}{
	{"random", func(r *rand.Rand, _, _ int) uint64 { return r.Uint64() }},
	{"nearly-sorted", func(r *rand.Rand, i, _ int) uint64 {
		if r.IntN(100) == 0 {
			return r.Uint64() >> 40
		}
		return uint64(i)
	}},
	{"all-equal", func(*rand.Rand, int, int) uint64 { return 42 }},
	{"reversed", func(_ *rand.Rand, i, n int) uint64 { return uint64(n - i) }},
	{"few-distinct", func(r *rand.Rand, _, _ int) uint64 { return uint64(r.IntN(4)) }},
	{"extremes", func(r *rand.Rand, _, _ int) uint64 { return []uint64{0, math.MaxUint64, 1 << 63, 1<<63 - 1}[r.IntN(4)] }},
}

// policyOf is the policy of an instance whose widest element has size bytes
// on the H200 (the policy the kernels were compiled with).
func policyOf(size int) arch.Policy { return algo.MergeSortKeys.Policy(int64(size), 90) }

// tileOf is the tile of policyOf(size).
func tileOf(size int) int { return policyOf(size).Tile() }

// singleItems are the items per thread of the single kernel's smaller tiles
// (kernels/include/gocccl/merge_sort.cuh, MergeSortSingleItems): up to one
// tile, n keys are sorted in the first tile of BlockThreads × items that
// holds them, for items below the policy's.
var singleItems = []int{2, 4, 8}

// sizesFor are the lengths a suite runs at: empty, one, two, around each of
// the single kernel's smaller tiles and around one tile, an odd and an even
// number of merge passes, and large.
// The large sizes run for the random and few-distinct patterns only (their
// merges are alike for every pattern); 2^26 only on the GPU, random only.
func sizesFor(p arch.Policy, gpu bool, pattern string, big bool) []int {
	s := []int{0, 1, 2}
	for _, items := range singleItems {
		if small := p.BlockThreads * items; items < p.ItemsPerThread {
			s = append(s, small-1, small, small+1)
		}
	}
	tile := p.Tile()
	s = append(s, tile-1, tile, tile+1, 3*tile+5, 8*tile, 37*tile-1)
	if pattern != "random" && pattern != "few-distinct" {
		return s
	}
	s = append(s, 1_000_003)
	if gpu && big && pattern == "random" {
		s = append(s, 1<<26)
	}
	return s
}

// stableOracle returns xs sorted stably by less: slices.SortStableFunc up
// to a few million elements; above (2^26 on the GPU), where it takes
// minutes, the same order from slices.SortFunc with the input position as
// the tiebreak, which is what stability means.
func stableOracle[T any](xs []T, less func(a, b T) bool) []T {
	order := func(a, b T) int {
		switch {
		case less(a, b):
			return -1
		case less(b, a):
			return 1
		}
		return 0
	}
	if len(xs) <= 2_000_000 {
		ys := slices.Clone(xs)
		slices.SortStableFunc(ys, order)
		return ys
	}
	type at struct {
		x T
		i int
	}
	zs := make([]at, len(xs))
	for i, x := range xs {
		zs[i] = at{x, i}
	}
	slices.SortFunc(zs, func(a, b at) int { return cmp.Or(order(a.x, b.x), cmp.Compare(a.i, b.i)) })
	ys := make([]T, len(xs))
	for i, z := range zs {
		ys[i] = z.x
	}
	return ys
}

// keysSuite is one MergeSortKeys instance with its Go comparator.
type keysSuite[K any] struct {
	name string
	sort *runtime.MergeSortKeysOp[K]
	less func(K, K) bool
	from func(x uint64, i int) K
	big  bool // also run at 2^26 on the GPU
}

func (s keysSuite[K]) run(t *testing.T, ds []*runtime.Device) {
	var k K
	policy := policyOf(int(unsafe.Sizeof(k)))
	r := rand.New(rand.NewPCG(11, uint64(policy.Tile())))
	for _, p := range patterns {
		for _, n := range sizesFor(policy, len(ds) > 1, p.name, s.big) {
			keys := make([]K, n)
			for i := range keys {
				keys[i] = s.from(p.gen(r, i, n), i)
			}
			want := stableOracle(keys, s.less)
			for _, d := range ds {
				if n > 1_000_003 && d.Backend() == runtime.CPU {
					continue
				}
				t.Run(fmt.Sprintf("%s/%s/%d/%v", s.name, p.name, n, d.Backend()), func(t *testing.T) {
					buf := devcheck.Upload(t, d, keys)
					require.NoError(t, s.sort.Run(nil, buf))
					devcheck.RequireBitEqual(t, want, devcheck.Download(t, buf), "keys vs slices.SortStableFunc")
				})
			}
		}
	}
}

// pairsSuite is one MergeSortPairs instance; values record the original
// index, so equality with the stable oracle proves stability.
type pairsSuite[K, V any] struct {
	name  string
	sort  *runtime.MergeSortPairsOp[K, V]
	less  func(K, K) bool
	from  func(x uint64, i int) K
	value func(i int) V
	big   bool
}

func (s pairsSuite[K, V]) run(t *testing.T, ds []*runtime.Device) {
	var k K
	var v V
	policy := policyOf(max(int(unsafe.Sizeof(k)), int(unsafe.Sizeof(v))))
	r := rand.New(rand.NewPCG(12, uint64(policy.Tile())))
	type pair struct {
		k K
		i int
	}
	for _, p := range patterns {
		for _, n := range sizesFor(policy, len(ds) > 1, p.name, s.big) {
			ps := make([]pair, n)
			keys, values := make([]K, n), make([]V, n)
			for i := range ps {
				ps[i] = pair{s.from(p.gen(r, i, n), i), i}
				keys[i], values[i] = ps[i].k, s.value(i)
			}
			ps = stableOracle(ps, func(a, b pair) bool { return s.less(a.k, b.k) })
			wantK, wantV := make([]K, n), make([]V, n)
			for i, q := range ps {
				wantK[i], wantV[i] = q.k, s.value(q.i)
			}
			for _, d := range ds {
				if n > 1_000_003 && d.Backend() == runtime.CPU {
					continue
				}
				t.Run(fmt.Sprintf("%s/%s/%d/%v", s.name, p.name, n, d.Backend()), func(t *testing.T) {
					kb, vb := devcheck.Upload(t, d, keys), devcheck.Upload(t, d, values)
					require.NoError(t, s.sort.Run(nil, kb, vb))
					gotK, gotV := devcheck.Download(t, kb), devcheck.Download(t, vb)
					devcheck.RequireBitEqual(t, wantK, gotK, "keys vs slices.SortStableFunc")
					devcheck.RequireBitEqual(t, wantV, gotV, "values vs slices.SortStableFunc (not stable?)")
				})
			}
		}
	}
}

// floatSpecials are mixed into float keys: NaNs of both signs, infinities,
// ±0, extremes and subnormals.
var floatSpecials = []float64{math.NaN(), math.Copysign(math.NaN(), -1), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
	math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat64}

func floatFrom(x uint64) float64 {
	if x%5 == 0 {
		return floatSpecials[(x/5)%uint64(len(floatSpecials))]
	}
	return float64(int64(x)) / (1 << 40)
}

func TestMergeSortKeys(t *testing.T) {
	ds := devices(t)
	t.Run("uint32", func(t *testing.T) {
		keysSuite[uint32]{"uint32", KeysUint32, LessUint32, func(x uint64, _ int) uint32 { return uint32(x) }, true}.run(t, ds)
	})
	t.Run("uint64", func(t *testing.T) {
		keysSuite[uint64]{"uint64", KeysUint64, LessUint64, func(x uint64, _ int) uint64 { return x }, false}.run(t, ds)
	})
	t.Run("int8", func(t *testing.T) {
		keysSuite[int8]{"int8", KeysInt8, LessInt8, func(x uint64, _ int) int8 { return int8(x) }, false}.run(t, ds)
	})
	t.Run("float32", func(t *testing.T) {
		keysSuite[float32]{"float32", KeysFloat32, TotalLessFloat32, func(x uint64, _ int) float32 { return float32(floatFrom(x)) }, true}.run(t, ds)
	})
	t.Run("float64", func(t *testing.T) {
		keysSuite[float64]{"float64", KeysFloat64, TotalLessFloat64, func(x uint64, _ int) float64 { return floatFrom(x) }, false}.run(t, ds)
	})
	t.Run("Record", func(t *testing.T) {
		keysSuite[Record]{"Record", KeysRecord, LessRecord, recordFrom, false}.run(t, ds)
	})
}

// recordFrom makes a struct key with many equivalent records; ID records
// the input position, so a keys-only sort's stability shows.
func recordFrom(x uint64, i int) Record {
	return Record{Group: int32(x % 7), Score: float64((x >> 3) % 11), ID: uint16(i)}
}

func TestMergeSortPairs(t *testing.T) {
	ds := devices(t)
	t.Run("uint32-uint32", func(t *testing.T) {
		pairsSuite[uint32, uint32]{"uint32-uint32", PairsUint32, LessUint32, func(x uint64, _ int) uint32 { return uint32(x) }, func(i int) uint32 { return uint32(i) }, true}.run(t, ds)
	})
	t.Run("Record-int64", func(t *testing.T) {
		pairsSuite[Record, int64]{"Record-int64", PairsRecord, LessRecord, recordFrom, func(i int) int64 { return int64(i) }, false}.run(t, ds)
	})
	t.Run("int8-Payload", func(t *testing.T) {
		pairsSuite[int8, Payload]{"int8-Payload", PairsPayload, LessInt8, func(x uint64, _ int) int8 { return int8(x) },
			func(i int) Payload { return Payload{Index: int64(i), Pad: [4]float64{float64(i), -1, 2, float64(-i)}} }, false}.run(t, ds)
	})
}

// TestMergeSortTempStorage checks that the scratch a GPU sort reports is
// zero within a tile (the single kernel's) and covers a copy of the keys
// and values beyond.
func TestMergeSortTempStorage(t *testing.T) {
	tile := tileOf(4)
	for _, d := range devices(t) {
		for _, n := range []int{0, 1, 2, 1000, tile} {
			b, err := PairsUint32.TempStorageBytes(d, n)
			require.NoError(t, err)
			require.Zero(t, b, "n = %d", n)
		}
		for _, n := range []int{tile + 1, 1 << 20} {
			b, err := PairsUint32.TempStorageBytes(d, n)
			require.NoError(t, err)
			if d.Backend() == runtime.CPU {
				require.Zero(t, b)
				continue
			}
			require.GreaterOrEqual(t, b, 8*n, "n = %d", n)
			require.Less(t, b, 8*n+4096, "n = %d", n)
		}
	}
}

// TestStableOracle checks that the large-size oracle agrees with
// slices.SortStableFunc.
func TestStableOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	recs := make([]Record, 2_000_001)
	for i := range recs {
		recs[i] = recordFrom(r.Uint64(), i)
	}
	want := slices.Clone(recs)
	slices.SortStableFunc(want, func(a, b Record) int {
		return cmp.Or(cmp.Compare(a.Group, b.Group), -cmp.Compare(a.Score, b.Score))
	})
	require.Equal(t, want, stableOracle(recs, LessRecord))
}

// TestMergeSort64BitIndexing sorts 2^31 + 4099 int8 keys on the GPU (2 GiB
// of keys and as much scratch), past every 32-bit index, and checks the
// result in O(n): ascending, with the input's histogram.
func TestMergeSort64BitIndexing(t *testing.T) {
	if testing.Short() {
		t.Skip("sorts 2^31 keys")
	}
	gpu, err := runtime.OpenGPU(0)
	if err != nil {
		t.Skipf("no CUDA GPU: %v", err)
	}
	defer gpu.Close()
	n := 1<<31 + 4099
	keys := make([]int8, n)
	r := rand.New(rand.NewPCG(15, 16))
	var hist [256]int
	for i := range keys {
		keys[i] = int8(r.Uint32())
		hist[uint8(keys[i])]++
	}
	buf, err := runtime.FromHost(gpu, keys)
	require.NoError(t, err)
	defer buf.Free()
	require.NoError(t, KeysInt8.Run(nil, buf))
	require.NoError(t, buf.CopyToHost(keys))
	for i, k := range keys {
		if i > 0 && k < keys[i-1] {
			t.Fatalf("not sorted at %d: %d after %d", i, k, keys[i-1])
		}
		hist[uint8(k)]--
	}
	for v, c := range hist {
		require.Zero(t, c, "count of key %d", int8(v))
	}
}

// mergeWave returns the largest number of tiles of tile keys a sort on d
// merges without partition kernels (its merge blocks search their own
// splits): the last one for which temp (TempStorageBytes) reports no more
// than copies (the keys' and values' copies of n keys).
func mergeWave(t *testing.T, tile int, temp func(n int) (int, error), copies func(n int) int) int {
	t.Helper()
	splits := func(tiles int) bool {
		b, err := temp(tiles * tile)
		require.NoError(t, err)
		return b > copies(tiles*tile)
	}
	const most = 1 << 20
	require.False(t, splits(2), "two tiles")
	require.True(t, splits(most), "%d tiles", most)
	return sort.Search(most, splits) - 1 // splits is false, then true
}

// TestMergeSortWaveEdges sorts one key either side of four waves of resident
// merge blocks (runtime's mergeSearches) (where the merge passes stop searching their own splits and
// launch a partition kernel each) and one tile past it, with many
// equivalent keys, against the stable oracle: uint32 keys, Record keys
// (their IDs show stability) and uint32 pairs (the values do).
func TestMergeSortWaveEdges(t *testing.T) {
	gpu, err := runtime.OpenGPU(0)
	if err != nil {
		t.Skipf("no CUDA GPU: %v", err)
	}
	defer gpu.Close()
	up := func(x int) int { return (x + 255) &^ 255 }
	r := rand.New(rand.NewPCG(17, 18))
	sizes := func(tile, wave int) []int {
		return []int{wave*tile - 1, wave * tile, wave*tile + 1, (wave+1)*tile + 1}
	}
	t.Run("uint32", func(t *testing.T) {
		tile := tileOf(4)
		wave := mergeWave(t, tile, func(n int) (int, error) { return KeysUint32.TempStorageBytes(gpu, n) },
			func(n int) int { return up(4 * n) })
		for _, n := range sizes(tile, wave) {
			keys := make([]uint32, n)
			for i := range keys {
				keys[i] = r.Uint32N(16)
			}
			want := stableOracle(keys, LessUint32)
			buf := devcheck.Upload(t, gpu, keys)
			require.NoError(t, KeysUint32.Run(nil, buf))
			devcheck.RequireBitEqual(t, want, devcheck.Download(t, buf), fmt.Sprintf("n = %d (tile %d, wave %d)", n, tile, wave))
		}
	})
	t.Run("Record", func(t *testing.T) {
		var k Record
		tile := tileOf(int(unsafe.Sizeof(k)))
		wave := mergeWave(t, tile, func(n int) (int, error) { return KeysRecord.TempStorageBytes(gpu, n) },
			func(n int) int { return up(int(unsafe.Sizeof(k)) * n) })
		for _, n := range sizes(tile, wave) {
			keys := make([]Record, n)
			for i := range keys {
				keys[i] = recordFrom(r.Uint64(), i)
			}
			want := stableOracle(keys, LessRecord)
			buf := devcheck.Upload(t, gpu, keys)
			require.NoError(t, KeysRecord.Run(nil, buf))
			devcheck.RequireBitEqual(t, want, devcheck.Download(t, buf), fmt.Sprintf("n = %d (tile %d, wave %d)", n, tile, wave))
		}
	})
	t.Run("uint32-uint32", func(t *testing.T) {
		tile := tileOf(4)
		wave := mergeWave(t, tile, func(n int) (int, error) { return PairsUint32.TempStorageBytes(gpu, n) },
			func(n int) int { return 2 * up(4*n) })
		for _, n := range sizes(tile, wave) {
			keys, values := make([]uint32, n), make([]uint32, n)
			type pair struct{ k, v uint32 }
			ps := make([]pair, n)
			for i := range keys {
				keys[i], values[i] = r.Uint32N(16), uint32(i)
				ps[i] = pair{keys[i], values[i]}
			}
			ps = stableOracle(ps, func(a, b pair) bool { return a.k < b.k })
			wantK, wantV := make([]uint32, n), make([]uint32, n)
			for i, p := range ps {
				wantK[i], wantV[i] = p.k, p.v
			}
			kb, vb := devcheck.Upload(t, gpu, keys), devcheck.Upload(t, gpu, values)
			require.NoError(t, PairsUint32.Run(nil, kb, vb))
			devcheck.RequireBitEqual(t, wantK, devcheck.Download(t, kb), fmt.Sprintf("keys, n = %d (tile %d, wave %d)", n, tile, wave))
			devcheck.RequireBitEqual(t, wantV, devcheck.Download(t, vb), fmt.Sprintf("values, n = %d (tile %d, wave %d)", n, tile, wave))
		}
	})
}
