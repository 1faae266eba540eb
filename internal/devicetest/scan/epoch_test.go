package scan

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/internal/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// The tests here check the host protocol of the epoch tile states
// (kernels/include/gocccl/epoch_tile_state.cuh, runtime/epochs.go): every
// multi-tile scan on a stream finds in the stream's epoch region the states
// that the calls before it left, of every size and type, and must tell them
// apart from its own by their epoch alone. So the calls run back to back on
// ONE stream, with no synchronization between them, each into its own
// poisoned output, and are all checked afterwards against a sequential loop.

// epochKind is one scan instance under test with a generator of its inputs.
type epochKind struct {
	name string
	// prepare draws n inputs and a mode and uploads them with a poisoned
	// output: run enqueues the scan on s, check compares its output with a
	// sequential loop once s has finished.
	prepare func(t *testing.T, r *rand.Rand, d *runtime.Device, s *runtime.Stream, n int) epochCall
}

// epochCall is one prepared scan.
type epochCall struct{ run, check func(*testing.T) }

func kindOf[T any](name string, inst instances[T], gen func(*rand.Rand) T) epochKind {
	return epochKind{name, func(t *testing.T, r *rand.Rand, d *runtime.Device, s *runtime.Stream, n int) epochCall {
		xs := make([]T, n)
		for i := range xs {
			xs[i] = gen(r)
		}
		m := modes[r.IntN(len(modes))]
		init := gen(r)
		in := devcheck.Upload(t, d, xs)
		out := devcheck.Upload(t, d, devcheck.Poison[T](n))
		initBuf := devcheck.Upload(t, d, []T{init})
		what := fmt.Sprintf("%s/%s n=%d", name, m.name, n)
		run := func(t *testing.T) {
			var err error
			switch {
			case m.inclusive && !m.hasInit:
				err = inst.incl.Run(s, in, out)
			case m.inclusive && m.from:
				err = inst.incl.RunWithInitFrom(s, in, out, initBuf)
			case m.inclusive:
				err = inst.incl.RunWithInit(s, in, out, init)
			case m.from:
				err = inst.excl.RunWithInitFrom(s, in, out, initBuf)
			default:
				err = inst.excl.Run(s, in, out, init)
			}
			require.NoError(t, err, what)
		}
		check := func(t *testing.T) {
			requireBitEqual(t, sequential(inst.op, xs, init, m), devcheck.Download(t, out), what)
		}
		return epochCall{run, check}
	}}
}

// epochKinds are scans of every epoch form (1 to 4 words a tile state) and
// one wider than 16 bytes (CUB's states), all with exact results.
func epochKinds() []epochKind {
	u32 := func(r *rand.Rand) uint32 { return r.Uint32() }
	return []epochKind{
		kindOf("uint8", instances[uint8]{AddUint8, InclAddUint8, ExclAddUint8}, func(r *rand.Rand) uint8 { return uint8(r.Uint32()) }),
		kindOf("uint32", instances[uint32]{AddUint32, InclAddUint32, ExclAddUint32}, u32),
		kindOf("maxint32", instances[int32]{MaxInt32, InclMaxInt32, ExclMaxInt32}, func(r *rand.Rand) int32 { return int32(r.Uint32()) }),
		kindOf("uint64", instances[uint64]{AddUint64, InclAddUint64, ExclAddUint64}, func(r *rand.Rand) uint64 { return r.Uint64() }),
		kindOf("Affine", instances[Affine]{Then, InclThen, ExclThen}, func(r *rand.Rand) Affine { return Affine{r.Uint32() | 1, r.Uint32()} }),
		kindOf("Affine3", instances[Affine3]{Then3, InclThen3, ExclThen3}, func(r *rand.Rand) Affine3 { return Affine3{r.Uint32() | 1, r.Uint32(), r.Uint32()} }),
		kindOf("Mat2", instances[Mat2]{MatMul, InclMatMul, ExclMatMul}, func(r *rand.Rand) Mat2 { return Mat2{r.Uint32(), r.Uint32(), r.Uint32(), r.Uint32()} }),
		kindOf("Stats", instances[Stats]{Merge, InclMerge, ExclMerge}, func(r *rand.Rand) Stats {
			return Stats{N: int64(r.Uint64() >> 1), Sum: float64(r.IntN(2001) - 1000), Max: int32(r.Uint32())}
		}),
	}
}

// logUniform draws n in [1, hi], uniform in log scale.
func logUniform(r *rand.Rand, hi int) int {
	return max(1, int(math.Exp(r.Float64()*math.Log(float64(hi)))))
}

// TestEpochSequence runs 96 scans of random kinds and sizes (one tile to
// several waves, log-uniform up to 2^22, and two calls of 2^25 that grow the
// stream's epoch region in the middle) back to back on one stream, then
// checks them all.
func TestEpochSequence(t *testing.T) {
	dut, _, gpu := devices(t)
	r := devcheck.Rand(t)
	s, err := dut.NewStream()
	require.NoError(t, err)
	defer s.Close()
	kinds := epochKinds()
	hi, calls := 1<<22, 96
	if !gpu || testing.Short() {
		hi, calls = 1<<16, 24
	}
	var cs []epochCall
	for i := range calls {
		n := logUniform(r, hi)
		k := kinds[r.IntN(len(kinds))]
		if gpu && !testing.Short() && (i == calls/3 || i == 2*calls/3) {
			n, k = 1<<25+17, kinds[1] // uint32: more tiles than the first region holds
		}
		cs = append(cs, k.prepare(t, r, dut, s, n))
	}
	for _, c := range cs {
		c.run(t)
	}
	require.NoError(t, s.Synchronize())
	for _, c := range cs {
		c.check(t)
	}
}

// TestEpochGraphReplay interleaves replays of a captured graph of three
// scans with direct scans on the same stream: a replay initializes its
// states and uses the reserved epoch, so neither the replays nor the direct
// calls may take the other's states for their own, whichever ran last.
func TestEpochGraphReplay(t *testing.T) {
	dut, _, gpu := devices(t)
	r := devcheck.Rand(t)
	s, err := dut.NewStream()
	require.NoError(t, err)
	defer s.Close()
	n32, n64, n3, hi := 3_000_017, 1_000_003, 50_021, 1<<22
	if !gpu {
		n32, n64, n3, hi = 20_011, 10_007, 5_003, 1<<16
	}
	in32, out32 := devcheck.Alloc[uint32](t, dut, n32), devcheck.Alloc[uint32](t, dut, n32)
	in64, out64 := devcheck.Alloc[uint64](t, dut, n64), devcheck.Alloc[uint64](t, dut, n64)
	in3, out3 := devcheck.Alloc[Affine3](t, dut, n3), devcheck.Alloc[Affine3](t, dut, n3)
	const init64 = 0x0123456789abcdef
	g, err := s.Capture(func() error {
		if err := InclAddUint32.Run(s, in32, out32); err != nil {
			return err
		}
		if err := ExclAddUint64.Run(s, in64, out64, init64); err != nil {
			return err
		}
		return InclThen3.Run(s, in3, out3)
	})
	require.NoError(t, err)
	defer g.Close()

	kinds := epochKinds()
	direct := func(calls int) []epochCall {
		var cs []epochCall
		for range calls {
			cs = append(cs, kinds[r.IntN(len(kinds))].prepare(t, r, dut, s, logUniform(r, hi)))
		}
		return cs
	}
	for replay := range 4 {
		xs32 := make([]uint32, n32)
		for i := range xs32 {
			xs32[i] = r.Uint32()
		}
		xs64 := make([]uint64, n64)
		for i := range xs64 {
			xs64[i] = r.Uint64()
		}
		xs3 := make([]Affine3, n3)
		for i := range xs3 {
			xs3[i] = Affine3{r.Uint32() | 1, r.Uint32(), r.Uint32()}
		}
		require.NoError(t, in32.CopyFromHost(xs32))
		require.NoError(t, in64.CopyFromHost(xs64))
		require.NoError(t, in3.CopyFromHost(xs3))
		require.NoError(t, out32.CopyFromHost(devcheck.Poison[uint32](n32)))
		require.NoError(t, out64.CopyFromHost(devcheck.Poison[uint64](n64)))
		require.NoError(t, out3.CopyFromHost(devcheck.Poison[Affine3](n3)))
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
		requireBitEqual(t, sequential(AddUint32, xs32, 0, modes[0]), devcheck.Download(t, out32), what+": uint32")
		requireBitEqual(t, sequential(AddUint64, xs64, init64, modes[3]), devcheck.Download(t, out64), what+": uint64")
		requireBitEqual(t, sequential(Then3, xs3, Affine3{}, modes[0]), devcheck.Download(t, out3), what+": Affine3")
		for _, c := range append(before, after...) {
			c.check(t)
		}
	}
}
