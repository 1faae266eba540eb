package group

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/runtime"
)

// outcome is what every distributed algorithm returns over one input,
// gathered to the host.
type outcome struct {
	sum        int64
	scan       []int64
	hist       []int32
	histRange  []int32
	balanced   []int64
	selected   []int64
	odd        []int64
	sorted     []uint32
	pairKeys   []uint32
	pairValues []int64
	runKeys    []uint32
	runSums    []int64
}

// runAll runs every distributed algorithm over ks, vs and fs (sharded
// alike) and gathers the results. It returns errors, not failures: it runs
// on the goroutines that stand for processes.
func runAll(g *Group, ks *Sharded[uint32], vs *Sharded[int64], fs *Sharded[float32]) (o outcome, err error) {
	if o.sum, err = Reduce(sum, vs, 5); err != nil {
		return o, err
	}
	out, err := Alloc[int64](g, vs.Lens())
	if err != nil {
		return o, err
	}
	defer out.Free()
	if err := InclusiveScan(incl, sum, vs, out); err != nil {
		return o, err
	}
	if o.scan, err = out.Gather(); err != nil {
		return o, err
	}
	if o.hist, err = HistogramEven(hist, fs, 37, 0, 10); err != nil {
		return o, err
	}
	if o.histRange, err = HistogramRange(histRange, fs, []float32{0, 1, 2.5, 9}); err != nil {
		return o, err
	}
	sel, _, err := Partition(halves, vs, out)
	if err != nil {
		return o, err
	}
	if o.selected, err = sel.Gather(); err != nil {
		return o, err
	}
	b, err := Rebalance(sel)
	if err != nil {
		return o, err
	}
	defer b.Free()
	if o.balanced, err = b.Gather(); err != nil {
		return o, err
	}
	if !slices.Equal(b.Lens(), Split(sel.Len(), g.Size())) {
		return o, fmt.Errorf("rebalanced shards of %v", b.Lens())
	}
	picked, err := Select(odds, vs, out)
	if err != nil {
		return o, err
	}
	if o.odd, err = picked.Gather(); err != nil {
		return o, err
	}
	sorted, err := SortKeys(sortU32, ks)
	if err != nil {
		return o, err
	}
	defer sorted.Free()
	if o.sorted, err = sorted.Gather(); err != nil {
		return o, err
	}
	pk, pv, err := SortPairs(sortPairs, ks, vs)
	if err != nil {
		return o, err
	}
	defer pk.Free()
	defer pv.Free()
	if o.pairKeys, err = pk.Gather(); err != nil {
		return o, err
	}
	if o.pairValues, err = pv.Gather(); err != nil {
		return o, err
	}
	rk, ra, err := ReduceByKey(sums, ks, vs)
	if err != nil {
		return o, err
	}
	defer rk.Free()
	defer ra.Free()
	if o.runKeys, err = rk.Gather(); err != nil {
		return o, err
	}
	o.runSums, err = ra.Gather()
	return o, err
}

// TestJoin forms groups of CPU devices the way processes do (one goroutine
// a process, each with its own device, its own rank and its own part of
// the input, of uneven and empty lengths) and checks that every process
// gets what one device gets over the concatenated parts.
func TestJoin(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, lens := range [][]int{{0}, {17}, {3, 0}, {0, 0, 0}, {100, 1, 0, 250}, {1, 2, 3, 4, 5, 6, 7, 8}, {1000, 999, 1001}} {
		t.Run(fmt.Sprint(lens), func(t *testing.T) {
			size := len(lens)
			parts := make([][]uint32, size)
			vparts := make([][]int64, size)
			fparts := make([][]float32, size)
			var keys []uint32
			var values []int64
			var floats []float32
			for r, n := range lens {
				for range n {
					// Runs of equal keys that span parts.
					k := uint32(rng.IntN(5))
					if len(keys) > 0 && rng.IntN(3) > 0 {
						k = keys[len(keys)-1]
					}
					parts[r] = append(parts[r], k)
					vparts[r] = append(vparts[r], rng.Int64N(1<<40)-1<<39)
					fparts[r] = append(fparts[r], rng.Float32()*12-1)
					keys, values, floats = append(keys, k), append(values, vparts[r][len(vparts[r])-1]), append(floats, fparts[r][len(fparts[r])-1])
				}
			}
			want := oneDevice(t, keys, values, floats)

			id, err := NewID(runtime.CPU)
			require.NoError(t, err)
			got := make([]outcome, size)
			errs := make([]error, size)
			done := make(chan struct{})
			for r := range size {
				go func() {
					defer func() { done <- struct{}{} }()
					got[r], errs[r] = member(id, r, size, parts[r], vparts[r], fparts[r])
				}()
			}
			for range size {
				select {
				case <-done:
				case <-time.After(30 * time.Second):
					t.Fatal("a rank did not return in 30 s")
				}
			}
			for r := range size {
				require.NoError(t, errs[r], "rank %d", r)
				assert.Equal(t, want, got[r], "rank %d against one device", r)
			}
		})
	}
}

// member is one process of TestJoin: it joins, shards its parts and runs
// every algorithm.
func member(id ID, rank, size int, keys []uint32, values []int64, floats []float32) (outcome, error) {
	dev, err := runtime.Open(runtime.CPU)
	if err != nil {
		return outcome{}, err
	}
	defer dev.Close()
	g, err := Join(dev, id, rank, size)
	if err != nil {
		return outcome{}, err
	}
	defer g.Close()
	if g.Size() != size || !slices.Equal(g.Ranks(), []int{rank}) || g.Device(rank) != dev {
		return outcome{}, fmt.Errorf("joined group: size %d, ranks %v", g.Size(), g.Ranks())
	}
	for q := range size {
		if q != rank && g.Device(q) != nil {
			return outcome{}, fmt.Errorf("rank %d of another process has a device here", q)
		}
	}
	ks, err := ScatterPart(g, keys)
	if err != nil {
		return outcome{}, err
	}
	defer ks.Free()
	vs, err := ScatterPart(g, values)
	if err != nil {
		return outcome{}, err
	}
	defer vs.Free()
	fs, err := ScatterPart(g, floats)
	if err != nil {
		return outcome{}, err
	}
	defer fs.Free()
	if ks.Offset(rank) != vs.Offset(rank) || ks.Shard(rank).Len() != len(keys) {
		return outcome{}, fmt.Errorf("shard %d: offset %d, length %d", rank, ks.Offset(rank), ks.Shard(rank).Len())
	}
	return runAll(g, ks, vs, fs)
}

// oneDevice runs every algorithm on a group of one device.
func oneDevice(t *testing.T, keys []uint32, values []int64, floats []float32) outcome {
	t.Helper()
	g := cpuGroup(t, 1)
	ks, err := Scatter(g, keys)
	require.NoError(t, err)
	defer ks.Free()
	vs, err := Scatter(g, values)
	require.NoError(t, err)
	defer vs.Free()
	fs, err := Scatter(g, floats)
	require.NoError(t, err)
	defer fs.Free()
	o, err := runAll(g, ks, vs, fs)
	require.NoError(t, err)
	require.Len(t, o.sorted, len(keys))
	require.Len(t, o.runKeys, len(o.runSums))
	return o
}

// TestJoinErrors checks Join's and the ids' argument errors.
func TestJoinErrors(t *testing.T) {
	dev, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer dev.Close()
	id, err := NewID(runtime.CPU)
	require.NoError(t, err)
	other, err := NewID(runtime.CPU)
	require.NoError(t, err)
	assert.NotEqual(t, id, other, "two ids name two groups")

	_, err = Join(nil, id, 0, 1)
	assert.EqualError(t, err, "gocccl: group.Join: nil device")
	for _, rs := range [][2]int{{-1, 2}, {2, 2}, {0, 0}} {
		_, err = Join(dev, id, rs[0], rs[1])
		assert.EqualError(t, err, fmt.Sprintf("gocccl: group.Join: rank %d of a group of %d: want 0 ≤ rank < size", rs[0], rs[1]))
	}
	_, err = Join(dev, ID{backend: runtime.GPU}, 0, 1)
	assert.ErrorContains(t, err, "a cpu device joining a group whose id NewID made for gpu devices")
	_, err = NewID(runtime.Auto)
	assert.ErrorContains(t, err, "want runtime.GPU or runtime.CPU")

	// A rank twice, and a size other than the first rank's: the first
	// rank of a group of two waits in Join until its peer comes.
	first := make(chan error, 1)
	go func() {
		g, err := Join(dev, id, 0, 2)
		if err == nil {
			g.Close()
		}
		first <- err
	}()
	require.Eventually(t, func() bool {
		meetings.Lock()
		defer meetings.Unlock()
		return meetings.byID[id] != nil
	}, 5*time.Second, time.Millisecond)
	_, err = Join(dev, id, 1, 3)
	assert.EqualError(t, err, "gocccl: group.Join: rank 1 of 3: the group has 2 ranks (as its first rank joined it), not 3")
	_, err = Join(dev, id, 0, 2)
	assert.EqualError(t, err, "gocccl: group.Join: rank 0 of 2: rank 0 joined the group already")
	dev2, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer dev2.Close()
	g, err := Join(dev2, id, 1, 2)
	require.NoError(t, err)
	require.NoError(t, <-first)
	defer g.Close()
	_, err = ScatterPart(cpuGroup(t, 2), []int64{1})
	assert.ErrorContains(t, err, "this process holds 2 ranks of the group; ScatterPart is for groups of Join")

	// Ids as text.
	back, err := ParseID(id.String())
	require.NoError(t, err)
	assert.Equal(t, id, back)
	assert.True(t, strings.HasPrefix(id.String(), "cpu:"))
	for _, bad := range []string{"", "gpu:12", "cpu:" + strings.Repeat("zz", 128), "tpu:" + strings.Repeat("00", 128)} {
		_, err := ParseID(bad)
		assert.ErrorContains(t, err, "gocccl: group.ParseID: ", "%q", bad)
	}
}

// TestRankFailure checks that a rank that fails inside an algorithm makes
// the others fail instead of waiting for ever in a collective it never
// joins, that the error names the rank that failed, and that the group
// runs the next algorithm.
func TestRankFailure(t *testing.T) {
	g := cpuGroup(t, 3)
	host := randomInt64s(rand.New(rand.NewPCG(23, 24)), 300)
	in, err := Scatter(g, host)
	require.NoError(t, err)
	// Rank 1's shard freed behind the group's back: its Reduce fails
	// before it joins the all-gather that ranks 0 and 2 wait in.
	require.NoError(t, in.Shard(1).Free())
	done := make(chan error, 1)
	go func() { _, err := Reduce(sum, in, 0); done <- err }()
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Reduce did not return in 30 s after rank 1 failed")
	}
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "gocccl: group.Reduce: rank 1: "), err.Error())
	assert.False(t, errors.Is(err, errPeerFailed), "the error is rank 1's own, not its peers'")

	fresh, err := Scatter(g, host)
	require.NoError(t, err)
	defer fresh.Free()
	got, err := Reduce(sum, fresh, 0)
	require.NoError(t, err)
	want := int64(0)
	for _, x := range host {
		want += x
	}
	assert.Equal(t, want, got, "the group runs the next algorithm")
}
