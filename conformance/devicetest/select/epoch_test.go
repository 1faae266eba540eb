package selecttest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// The tests here check the compactions over epoch tile states
// (kernels/include/gocccl/select.cuh, epoch_tile_state.cuh,
// runtime/epochs.go): every multi-tile compaction on a stream finds in the
// stream's epoch region the states that the calls before it left (of one
// count, of a packed pair, of other sizes of tiles) and must tell them apart
// from its own by their epoch alone. So the calls run back to back on ONE
// stream, with no synchronization between them, each into its own poisoned
// outputs, and are all compared with the CPU backend afterwards, poison
// included.

// epochCall is one prepared compaction: run enqueues it on the stream under
// test, check compares its outputs with the CPU backend's once the stream
// has finished.
type epochCall struct{ run, check func(*testing.T) }

// epochKind is one compaction instance under test. prepare uploads n inputs
// (runs of equal values up to maxRun long) with poisoned outputs on gpu.
type epochKind struct {
	name    string
	prepare func(t *testing.T, xs epochInput, gpu, cpu *runtime.Device, s *runtime.Stream) epochCall
}

// epochInput draws the inputs of one call.
type epochInput struct {
	r         *rand.Rand
	n, maxRun int
}

// values returns n values of gen in runs of 1 to maxRun equal values.
func values[T any](in epochInput, gen func(*rand.Rand) T) []T {
	xs := make([]T, in.n)
	for i := 0; i < in.n; {
		v := gen(in.r)
		for k := 1 + in.r.IntN(in.maxRun); k > 0 && i < in.n; k-- {
			xs[i] = v
			i++
		}
	}
	return xs
}

func selectKind[T any](name string, op *runtime.SelectOp[T], gen func(*rand.Rand) T) epochKind {
	return epochKind{"Select/" + name, func(t *testing.T, in epochInput, gpu, cpu *runtime.Device, s *runtime.Stream) epochCall {
		xs := values(in, gen)
		din, out, count := devcheck.Upload(t, gpu, xs), devcheck.Upload(t, gpu, devcheck.Poison[T](in.n)), devcheck.Upload(t, gpu, devcheck.Poison[int64](1))
		what := fmt.Sprintf("Select/%s n=%d", name, in.n)
		return epochCall{
			func(t *testing.T) { require.NoError(t, op.Run(s, din, out, count), what) },
			func(t *testing.T) {
				want, wk := selectOn(t, cpu, op, xs)
				require.Equal(t, wk, devcheck.Download(t, count)[0], what+": count")
				devcheck.RequireBitEqual(t, want, devcheck.Download(t, out), what+": device vs CPU backend")
			}}
	}}
}

func partitionKind[T any](name string, op *runtime.PartitionOp[T], gen func(*rand.Rand) T) epochKind {
	return epochKind{"Partition/" + name, func(t *testing.T, in epochInput, gpu, cpu *runtime.Device, s *runtime.Stream) epochCall {
		xs := values(in, gen)
		din, out, count := devcheck.Upload(t, gpu, xs), devcheck.Upload(t, gpu, devcheck.Poison[T](in.n)), devcheck.Upload(t, gpu, devcheck.Poison[int64](1))
		what := fmt.Sprintf("Partition/%s n=%d", name, in.n)
		return epochCall{
			func(t *testing.T) { require.NoError(t, op.Run(s, din, out, count), what) },
			func(t *testing.T) {
				want, wk := partitionOn(t, cpu, op, xs)
				require.Equal(t, wk, devcheck.Download(t, count)[0], what+": count")
				devcheck.RequireBitEqual(t, want, devcheck.Download(t, out), what+": device vs CPU backend")
			}}
	}}
}

func threeWayKind[T any](name string, op *runtime.ThreeWayPartitionOp[T], gen func(*rand.Rand) T) epochKind {
	return epochKind{"ThreeWayPartition/" + name, func(t *testing.T, in epochInput, gpu, cpu *runtime.Device, s *runtime.Stream) epochCall {
		xs := values(in, gen)
		din := devcheck.Upload(t, gpu, xs)
		a, b, c := devcheck.Upload(t, gpu, devcheck.Poison[T](in.n)), devcheck.Upload(t, gpu, devcheck.Poison[T](in.n)), devcheck.Upload(t, gpu, devcheck.Poison[T](in.n))
		counts := devcheck.Upload(t, gpu, devcheck.Poison[int64](3))
		what := fmt.Sprintf("ThreeWayPartition/%s n=%d", name, in.n)
		return epochCall{
			func(t *testing.T) { require.NoError(t, op.Run(s, din, a, b, c, counts), what) },
			func(t *testing.T) {
				want, wk := threeWayOn(t, cpu, op, xs)
				require.Equal(t, wk, [3]int64(devcheck.Download(t, counts)), what+": counts (the third untouched)")
				for i, got := range []*runtime.Slice[T]{a, b, c} {
					devcheck.RequireBitEqual(t, want[i], devcheck.Download(t, got), what+": "+[]string{"first", "second", "rest"}[i])
				}
			}}
	}}
}

func uniqueKind[T any](name string, op *runtime.UniqueOp[T], gen func(*rand.Rand) T) epochKind {
	return epochKind{"Unique/" + name, func(t *testing.T, in epochInput, gpu, cpu *runtime.Device, s *runtime.Stream) epochCall {
		xs := values(in, gen)
		din, out, count := devcheck.Upload(t, gpu, xs), devcheck.Upload(t, gpu, devcheck.Poison[T](in.n)), devcheck.Upload(t, gpu, devcheck.Poison[int64](1))
		what := fmt.Sprintf("Unique/%s n=%d", name, in.n)
		return epochCall{
			func(t *testing.T) { require.NoError(t, op.Run(s, din, out, count), what) },
			func(t *testing.T) {
				want, wk := uniqueOn(t, cpu, op, xs)
				require.Equal(t, wk, devcheck.Download(t, count)[0], what+": count")
				devcheck.RequireBitEqual(t, want, devcheck.Download(t, out), what+": device vs CPU backend")
			}}
	}}
}

func uniqueByKeyKind[K, V any](name string, op *runtime.UniqueByKeyOp[K, V], key func(*rand.Rand) K, value func(*rand.Rand) V) epochKind {
	return epochKind{"UniqueByKey/" + name, func(t *testing.T, in epochInput, gpu, cpu *runtime.Device, s *runtime.Stream) epochCall {
		keys := values(in, key)
		vals := values(epochInput{in.r, in.n, 1}, value)
		ks, vs := devcheck.Upload(t, gpu, keys), devcheck.Upload(t, gpu, vals)
		kout, vout, count := devcheck.Upload(t, gpu, devcheck.Poison[K](in.n)), devcheck.Upload(t, gpu, devcheck.Poison[V](in.n)), devcheck.Upload(t, gpu, devcheck.Poison[int64](1))
		what := fmt.Sprintf("UniqueByKey/%s n=%d", name, in.n)
		return epochCall{
			func(t *testing.T) { require.NoError(t, op.Run(s, ks, vs, kout, vout, count), what) },
			func(t *testing.T) {
				wantK, wantV, wk := uniqueByKeyOn(t, cpu, op, keys, vals)
				require.Equal(t, wk, devcheck.Download(t, count)[0], what+": count")
				devcheck.RequireBitEqual(t, wantK, devcheck.Download(t, kout), what+": keys")
				devcheck.RequireBitEqual(t, wantV, devcheck.Download(t, vout), what+": values")
			}}
	}}
}

func rleKind[T any](name string, op *runtime.RunLengthEncodeOp[T], gen func(*rand.Rand) T) epochKind {
	return epochKind{"RunLengthEncode/" + name, func(t *testing.T, in epochInput, gpu, cpu *runtime.Device, s *runtime.Stream) epochCall {
		xs := values(in, gen)
		din, out, lens, count := devcheck.Upload(t, gpu, xs), devcheck.Upload(t, gpu, devcheck.Poison[T](in.n)), devcheck.Upload(t, gpu, devcheck.Poison[int64](in.n)), devcheck.Upload(t, gpu, devcheck.Poison[int64](1))
		what := fmt.Sprintf("RunLengthEncode/%s n=%d", name, in.n)
		return epochCall{
			func(t *testing.T) { require.NoError(t, op.Run(s, din, out, lens, count), what) },
			func(t *testing.T) {
				wu, wl, wk := rleOn(t, cpu, op, xs)
				require.Equal(t, wk, devcheck.Download(t, count)[0], what+": count")
				devcheck.RequireBitEqual(t, wu, devcheck.Download(t, out), what+": runs")
				devcheck.RequireBitEqual(t, wl, devcheck.Download(t, lens), what+": lengths")
			}}
	}}
}

func nonTrivialKind[T any](name string, op *runtime.RunLengthEncodeOp[T], gen func(*rand.Rand) T) epochKind {
	return epochKind{"NonTrivialRuns/" + name, func(t *testing.T, in epochInput, gpu, cpu *runtime.Device, s *runtime.Stream) epochCall {
		xs := values(in, gen)
		din, offs, lens, count := devcheck.Upload(t, gpu, xs), devcheck.Upload(t, gpu, devcheck.Poison[int64](in.n/2)), devcheck.Upload(t, gpu, devcheck.Poison[int64](in.n/2)), devcheck.Upload(t, gpu, devcheck.Poison[int64](1))
		what := fmt.Sprintf("NonTrivialRuns/%s n=%d", name, in.n)
		return epochCall{
			func(t *testing.T) { require.NoError(t, op.RunNonTrivial(s, din, offs, lens, count), what) },
			func(t *testing.T) {
				wo, wl, wk := nonTrivialOn(t, cpu, op, xs)
				require.Equal(t, wk, devcheck.Download(t, count)[0], what+": count")
				devcheck.RequireBitEqual(t, wo, devcheck.Download(t, offs), what+": offsets")
				devcheck.RequireBitEqual(t, wl, devcheck.Download(t, lens), what+": lengths")
			}}
	}}
}

// epochKinds are the compactions under test: every carry (one count, a
// packed pair of counts, a packed count and position) and several tile
// shapes (sm_90's 384 × 17, 256 × 23, 512 × 14 and 192 × 14 for 4-byte
// items, 128 × 16 for bytes, 128 × 8 for 8-byte items).
func epochKinds() []epochKind {
	u8 := func(r *rand.Rand) uint8 { return uint8(r.Uint32()) }
	u32 := func(r *rand.Rand) uint32 { return r.Uint32() }
	i64 := func(r *rand.Rand) int64 { return int64(r.Uint64()) }
	f32 := func(r *rand.Rand) float32 { return float32(r.NormFloat64()) }
	item := func(r *rand.Rand) Item { return Item{Key: r.Uint32(), Weight: float32(r.NormFloat64())} }
	return []epochKind{
		selectKind("uint8", SelectUint8, u8),
		selectKind("uint32", SelectUint32, u32),
		selectKind("int64", SelectInt64, i64),
		selectKind("Item", SelectItem, item),
		partitionKind("uint32", PartitionUint32, u32),
		partitionKind("int64", PartitionInt64, i64),
		partitionKind("Item", PartitionItem, item),
		uniqueKind("uint8", UniqueUint8, u8),
		uniqueKind("uint32", UniqueUint32, u32),
		uniqueKind("int64", UniqueInt64, i64),
		threeWayKind("uint32", ThreeWayUint32, u32),
		threeWayKind("Item", ThreeWayItem, item),
		uniqueByKeyKind("uint32,float32", UniqueByKeyUint32Float32, u32, f32),
		uniqueByKeyKind("Item,uint8", UniqueByKeyItemUint8, item, u8),
		rleKind("uint32", RLEUint32, u32),
		rleKind("int64", RLEInt64, i64),
		nonTrivialKind("uint32", RLEUint32, u32),
	}
}

// logUniform draws n in [1, hi], uniform in log scale.
func logUniform(r *rand.Rand, hi int) int {
	return max(1, int(math.Exp(r.Float64()*math.Log(float64(hi)))))
}

// epochSize draws the length of call i: log-uniform in [1, hi] (most of the
// small ones within one tile), every fourth call a few tiles (up to 40000
// items: 2 to 40 tiles of every shape), and one empty call.
func epochSize(r *rand.Rand, i, hi int) int {
	switch {
	case i == 5:
		return 0
	case i%4 == 0:
		return 2 + r.IntN(40_000)
	}
	return logUniform(r, hi)
}

// epochRun draws the longest run of equal values of a call: single values
// (random data), short runs, or runs longer than a tile, whose count and
// position carries cross tiles.
func epochRun(r *rand.Rand) int {
	return []int{1, 12, 12, 20_000}[r.IntN(4)]
}

// TestEpochSequence runs 64 compactions of random kinds and sizes (one tile,
// a few tiles, several waves: log-uniform up to 2^22, growing and
// shrinking, one empty, and two of 2^25 + 17 items that grow the stream's
// epoch region in the middle) back to back on one stream with no
// synchronization, each into its own poisoned outputs, then compares them
// all with the CPU backend.
func TestEpochSequence(t *testing.T) {
	epochSequence(t, devcheck.OpenGPU(t), devcheck.OpenCPU(t))
}

func epochSequence(t *testing.T, gpu, cpu *runtime.Device) {
	r := devcheck.Rand(t)
	s := stream(t, gpu)
	kinds := epochKinds()
	hi, calls := 1<<22, 64
	if testing.Short() {
		hi, calls = 1<<18, 24
	}
	var cs []epochCall
	var names []string
	for i := range calls {
		n, k := epochSize(r, i, hi), kinds[r.IntN(len(kinds))]
		if !testing.Short() && (i == calls/3 || i == 2*calls/3) {
			// uint32 Select at 384 × 17: 5141 tiles, more than the
			// first region (64 KiB: 4032 tiles of one count) holds.
			n, k = 1<<25+17, kinds[1]
		}
		cs = append(cs, k.prepare(t, epochInput{r, n, epochRun(r)}, gpu, cpu, s))
		names = append(names, fmt.Sprintf("%s n=%d", k.name, n))
	}
	t.Logf("calls: %v", names)
	for _, c := range cs {
		c.run(t)
	}
	require.NoError(t, s.Synchronize())
	for _, c := range cs {
		c.check(t)
	}
}

// TestEpochGraphReplay interleaves replays of a captured graph of three
// compactions with direct ones on the same stream: a replay initializes its
// states and uses the reserved epoch, so neither the replays nor the direct
// calls may take the other's states for their own, whichever ran last.
func TestEpochGraphReplay(t *testing.T) {
	epochGraphReplay(t, devcheck.OpenGPU(t), devcheck.OpenCPU(t))
}

func epochGraphReplay(t *testing.T, gpu, cpu *runtime.Device) {
	r := devcheck.Rand(t)
	s := stream(t, gpu)
	const nSel, nThree, nRLE = 3_000_017, 1_000_003, 500_009
	sin, sout, scount := devcheck.Alloc[uint32](t, gpu, nSel), devcheck.Alloc[uint32](t, gpu, nSel), devcheck.Alloc[int64](t, gpu, 1)
	tin, ta, tb, tc := devcheck.Alloc[Item](t, gpu, nThree), devcheck.Alloc[Item](t, gpu, nThree), devcheck.Alloc[Item](t, gpu, nThree), devcheck.Alloc[Item](t, gpu, nThree)
	tcounts := devcheck.Alloc[int64](t, gpu, 3)
	rin, rout, rlens, rcount := devcheck.Alloc[int64](t, gpu, nRLE), devcheck.Alloc[int64](t, gpu, nRLE), devcheck.Alloc[int64](t, gpu, nRLE), devcheck.Alloc[int64](t, gpu, 1)
	g, err := s.Capture(func() error {
		if err := SelectUint32.Run(s, sin, sout, scount); err != nil {
			return err
		}
		if err := ThreeWayItem.Run(s, tin, ta, tb, tc, tcounts); err != nil {
			return err
		}
		return RLEInt64.Run(s, rin, rout, rlens, rcount)
	})
	require.NoError(t, err)
	defer g.Close()

	kinds := epochKinds()
	direct := func(calls int) []epochCall {
		var cs []epochCall
		for range calls {
			in := epochInput{r, logUniform(r, 1<<22), epochRun(r)}
			cs = append(cs, kinds[r.IntN(len(kinds))].prepare(t, in, gpu, cpu, s))
		}
		return cs
	}
	for replay := range 4 {
		xs := values(epochInput{r, nSel, 1}, func(r *rand.Rand) uint32 { return r.Uint32() })
		items := values(epochInput{r, nThree, 1}, func(r *rand.Rand) Item { return Item{Key: r.Uint32(), Weight: float32(r.NormFloat64())} })
		runs := values(epochInput{r, nRLE, 20_000}, func(r *rand.Rand) int64 { return int64(r.Uint64()) })
		require.NoError(t, sin.CopyFromHost(xs))
		require.NoError(t, tin.CopyFromHost(items))
		require.NoError(t, rin.CopyFromHost(runs))
		for _, p := range []*runtime.Slice[int64]{scount, rcount, rout, rlens} {
			require.NoError(t, p.CopyFromHost(devcheck.Poison[int64](p.Len())))
		}
		require.NoError(t, tcounts.CopyFromHost(devcheck.Poison[int64](3)))
		require.NoError(t, sout.CopyFromHost(devcheck.Poison[uint32](nSel)))
		for _, p := range []*runtime.Slice[Item]{ta, tb, tc} {
			require.NoError(t, p.CopyFromHost(devcheck.Poison[Item](nThree)))
		}
		before, after := direct(6), direct(6)

		for _, c := range before {
			c.run(t)
		}
		require.NoError(t, g.Launch())
		for _, c := range after {
			c.run(t)
		}
		require.NoError(t, s.Synchronize())
		what := fmt.Sprintf("replay %d", replay)

		want, wk := selectOn(t, cpu, SelectUint32, xs)
		require.Equal(t, wk, devcheck.Download(t, scount)[0], what+": Select count")
		devcheck.RequireBitEqual(t, want, devcheck.Download(t, sout), what+": Select")
		want3, wk3 := threeWayOn(t, cpu, ThreeWayItem, items)
		require.Equal(t, wk3, [3]int64(devcheck.Download(t, tcounts)), what+": ThreeWayPartition counts")
		for i, got := range []*runtime.Slice[Item]{ta, tb, tc} {
			devcheck.RequireBitEqual(t, want3[i], devcheck.Download(t, got), what+": ThreeWayPartition part "+fmt.Sprint(i))
		}
		wu, wl, wkr := rleOn(t, cpu, RLEInt64, runs)
		require.Equal(t, wkr, devcheck.Download(t, rcount)[0], what+": RunLengthEncode count")
		devcheck.RequireBitEqual(t, wu, devcheck.Download(t, rout), what+": RunLengthEncode runs")
		devcheck.RequireBitEqual(t, wl, devcheck.Download(t, rlens), what+": RunLengthEncode lengths")
		for _, c := range append(before, after...) {
			c.check(t)
		}
	}
}
