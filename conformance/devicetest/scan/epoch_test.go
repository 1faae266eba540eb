package scan

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
)

// The tests here check the host protocol of the epoch tile states over
// every form of state (kernels/include/gocccl/epoch_tile_state.cuh,
// runtime/epochs.go) with the back-to-back harness of epochs_test.go: plain
// scans of values of 1 to 16 bytes (one to four 8-byte words a tile) and one
// wider (CUB's states) on one stream, and graph replays between direct calls.

// epochFormCases are plain scans over every epoch tile state form and one
// wider than 16 bytes, all with exact results; Affine3 and Mat2 are not
// commutative.
func epochFormCases() []b2bCase {
	return []b2bCase{
		scanB2B("uint8", instances[uint8]{AddUint8, InclAddUint8, ExclAddUint8}, draw(func(r *rand.Rand) uint8 { return uint8(r.Uint32()) })),
		scanB2B("uint32", instances[uint32]{AddUint32, InclAddUint32, ExclAddUint32}, draw(func(r *rand.Rand) uint32 { return r.Uint32() })),
		scanB2B("maxint32", instances[int32]{MaxInt32, InclMaxInt32, ExclMaxInt32}, draw(func(r *rand.Rand) int32 { return int32(r.Uint32()) })),
		scanB2B("uint64", instances[uint64]{AddUint64, InclAddUint64, ExclAddUint64}, draw(func(r *rand.Rand) uint64 { return r.Uint64() })),
		scanB2B("Affine", instances[Affine]{Then, InclThen, ExclThen}, draw(func(r *rand.Rand) Affine { return Affine{r.Uint32() | 1, r.Uint32()} })),
		scanB2B("Affine3", instances[Affine3]{Then3, InclThen3, ExclThen3}, draw(func(r *rand.Rand) Affine3 { return Affine3{r.Uint32() | 1, r.Uint32(), r.Uint32()} })),
		scanB2B("Mat2", instances[Mat2]{MatMul, InclMatMul, ExclMatMul}, draw(func(r *rand.Rand) Mat2 { return Mat2{r.Uint32(), r.Uint32(), r.Uint32(), r.Uint32()} })),
		scanB2B("Stats", instances[Stats]{Merge, InclMerge, ExclMerge}, draw(func(r *rand.Rand) Stats {
			return Stats{N: int64(r.Uint64() >> 1), Sum: float64(r.IntN(2001) - 1000), Max: int32(r.Uint32())}
		})),
	}
}

// TestEpochSequence runs 96 scans of random forms and sizes (tile edges, and
// log-uniform up to 2^22 with two calls of 2^25 in the middle that grow the
// stream's epoch region) back to back on one stream, then checks them all.
func TestEpochSequence(t *testing.T) {
	dut, oracle, gpu := devices(t)
	r := devcheck.Rand(t)
	cases := epochFormCases()
	hi, calls := 1<<22, 96
	if !gpu || testing.Short() {
		hi, calls = 1<<16, 24
	}
	seq := make([]b2bCall, calls)
	for i := range seq {
		c := cases[r.IntN(len(cases))]
		n := b2bSize(r, c.tile, hi)
		if gpu && !testing.Short() && (i == calls/3 || i == 2*calls/3) {
			c, n = cases[1], 1<<25+17 // uint32: more tiles than the first region holds
		}
		seq[i] = c.prepare(t, r, dut, oracle, n)
	}
	runBackToBack(t, dut, seq)
}

// TestEpochGraphReplay interleaves replays of a captured graph of three
// scans with direct scans on the same stream: a replay initializes its
// states and uses the reserved epoch, so neither the replays nor the direct
// calls may take the other's states for their own, whichever ran last.
func TestEpochGraphReplay(t *testing.T) {
	dut, oracle, gpu := devices(t)
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

	cases := epochFormCases()
	direct := func(calls int) []b2bCall {
		var cs []b2bCall
		for range calls {
			c := cases[r.IntN(len(cases))]
			cs = append(cs, c.prepare(t, r, dut, oracle, b2bSize(r, c.tile, hi)))
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
			require.NoError(t, c.enqueue(s), c.what)
		}
		require.NoError(t, g.Launch())
		for _, c := range after {
			require.NoError(t, c.enqueue(s), c.what)
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
