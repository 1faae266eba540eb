package runtime

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// simTopK runs the device algorithm of topk.cuh on the host, line by line,
// with a small tile: topkJob's launch sequence (the single block for n <=
// tile, else init and the passes of levels 0..levels, then the sort),
// Geometry's digits, masks and placement, classify, choose and the pass's
// buffers and control words. The blocks of each launch run one after the
// other in a random order (the last one chooses), so the outputs' order
// differs from run to run as on a GPU. Keys are given as their ordered bits
// (keyBits wide, flipped for the largest by the caller); it returns the
// output's (bits, position) pairs in output order.
//
// stride > 0 runs the prefilter first where topkFilterPlan allows it (at
// any n past a tile, with that sample spacing).
func simTopK(r *rand.Rand, bits []uint64, keyBits, k, threads, items int, sorted bool, stride int) ([][2]uint64, int) {
	n := len(bits)
	tile := threads * items
	out := make([][2]uint64, k)
	outIdx := make([]uint64, k)
	for i := range out {
		out[i] = [2]uint64{0xABABABAB, 0xABABABAB} // poison
	}
	launches := 0
	g := simGeometry{keyBits: keyBits, idxBits: topkIdxBits(n)}
	g.width = g.keyBits + g.idxBits
	if n <= tile {
		launches++
		simSingle(g, bits, n, k, out, outIdx)
	} else {
		c := &simControl{}
		hist := make([][]uint64, topkMaxLevels)
		for i := range hist {
			hist[i] = make([]uint64, topkDigits)
		}
		capacity := topkCap(n, tile)
		buf := [2][2][]uint64{{make([]uint64, capacity), make([]uint64, capacity)}, {make([]uint64, capacity), make([]uint64, capacity)}}
		grid := max(1, min((n+tile-1)/tile, 3))
		levels := topkLevels(n, keyBits/8)
		if levels != g.levels() {
			panic("levels differ")
		}
		launches++ // init
		if rank, ok := topkFilterPlan(n, k, keyBits/8, max(stride, 1)); stride > 0 && ok {
			launches += 4 // the sample's init and three phases
			simFilter(r, bits, keyBits, k, c, buf, capacity, stride, rank, grid, tile)
		}
		for level := 0; level <= levels; level++ {
			launches++
			simPass(r, g, bits, n, k, c, hist, buf, capacity, level, grid, tile, out, outIdx)
		}
		if c.outCount != int64(k) {
			panic(fmt.Sprintf("out_count %d, want k = %d", c.outCount, k))
		}
	}
	if sorted && k > threads*topkSortItems {
		launches += simSortBig(bits, keyBits, n, k, out, outIdx)
	} else if sorted && k > 1 {
		launches++
		// The sort kernel: by position, then stably by key bits.
		type e struct{ b, i uint64 }
		es := make([]e, k)
		for j := range es {
			es[j] = e{out[j][0], outIdx[j]}
		}
		slices.SortStableFunc(es, func(a, b e) int { return cmp.Compare(a.i, b.i) })
		slices.SortStableFunc(es, func(a, b e) int { return cmp.Compare(a.b, b.b) })
		for j := range es {
			out[j] = [2]uint64{es[j].b, es[j].i}
		}
	}
	return out, launches
}

// simSortBig runs sortBig's sequence on the host: the order kernel's sort
// items, then for each sort of topkSortPlan an LSD radix sort of 8-bit
// digits in a double buffer (pass p writes the alternate when p is even, the
// current buffer when odd, as radixJob.sweep does), then the gather kernel.
// out holds the selected (bits, position) pairs in output order, outIdx
// their positions; it writes the sorted pairs to out and returns its
// launches.
func simSortBig(bits []uint64, keyBits, n, k int, out [][2]uint64, outIdx []uint64) int {
	shift, steps := topkSortPlan(n, keyBits/8)
	b := [2][]uint64{make([]uint64, k), make([]uint64, k)}      // bits: current, alternate
	pos := [2][]uint64{slices.Clone(outIdx), make([]uint64, k)} // positions
	for p := range k {                                          // order
		b[0][p] = out[p][0]
		if shift > 0 {
			b[0][p] = b[0][p]<<shift | outIdx[p]
		}
	}
	launches := 1
	for _, st := range steps {
		keys, values := &b, &pos
		if st.byPos {
			keys, values = &pos, &b
		}
		passes := radixPasses(st.begin, st.end)
		launches += 2 + passes // init, histogram, one onesweep a pass (one portion)
		for q := range passes {
			src, dst := 0, 1
			if q%2 == 1 {
				src, dst = 1, 0
			}
			lo := st.begin + q*radixBits
			width := min(radixBits, st.end-lo)
			digit := func(x uint64) uint64 { return x >> lo & simLowMask(width) }
			var count [radixDigits + 1]int
			for _, x := range keys[src] {
				count[digit(x)+1]++
			}
			for d := 1; d <= radixDigits; d++ {
				count[d] += count[d-1]
			}
			for i, x := range keys[src] { // stable scatter
				at := count[digit(x)]
				count[digit(x)]++
				keys[dst][at], values[dst][at] = x, values[src][i]
			}
		}
		if passes%2 == 1 {
			keys[0], keys[1] = keys[1], keys[0]
			values[0], values[1] = values[1], values[0]
		}
	}
	for p := range k { // gather
		key := b[0][p] >> shift
		if key != bits[pos[0][p]] {
			panic(fmt.Sprintf("sorted item %d: key bits %#x, but position %d holds %#x", p, key, pos[0][p], bits[pos[0][p]]))
		}
		out[p] = [2]uint64{key, pos[0][p]}
	}
	return launches + 1
}

// simStats counts the pass blocks by (writes a buffer, reads one).
var simStats = map[[2]bool]int{}

type simGeometry struct{ keyBits, idxBits, width int }

func simLowMask(bits int) uint64 {
	switch {
	case bits <= 0:
		return 0
	case bits >= 64:
		return ^uint64(0)
	}
	return ^uint64(0) >> (64 - bits)
}

func (g simGeometry) levels() int { return (g.width + topkDigitBits - 1) / topkDigitBits }

func (g simGeometry) lo(q int) int { return max(0, g.width-topkDigitBits*(q+1)) }

func (g simGeometry) digit(b, i uint64, q int) uint64 {
	l := g.lo(q)
	w := (g.width - topkDigitBits*q) - l
	var d uint64
	switch {
	case l >= g.idxBits:
		d = b >> (l - g.idxBits)
	case l+w <= g.idxBits:
		d = i >> l
	default:
		d = (i >> l) | (b << (g.idxBits - l))
	}
	return d & simLowMask(w)
}

func (g simGeometry) masks(q int) (km, im uint64) {
	if q < 0 {
		return 0, 0
	}
	l := g.lo(q)
	if l >= g.idxBits {
		return simLowMask(g.keyBits) &^ simLowMask(l-g.idxBits), 0
	}
	return simLowMask(g.keyBits), simLowMask(g.idxBits) &^ simLowMask(l)
}

func (g simGeometry) place(d uint64, q int, tk, ti *uint64) {
	l := g.lo(q)
	if l >= g.idxBits {
		*tk |= d << (l - g.idxBits)
		return
	}
	*ti |= (d << l) & simLowMask(g.idxBits)
	if l+(g.width-topkDigitBits*q-l) > g.idxBits {
		*tk |= d >> (g.idxBits - l)
	}
}

func simCompare(b, i, tk, ti, km, im uint64) int {
	b &= km
	tk &= km
	if b != tk {
		return cmp.Compare(b, tk)
	}
	return cmp.Compare(i&im, ti&im)
}

func simClassify(g simGeometry, b, i uint64, q int, final bool, tk, ti uint64) (out, cand bool) {
	if q == 0 {
		return false, true
	}
	km2, im2 := g.masks(q - 2)
	if simCompare(b, i, tk, ti, km2, im2) != 0 {
		return false, false
	}
	km1, im1 := g.masks(q - 1)
	c := simCompare(b, i, tk, ti, km1, im1)
	if c < 0 || c == 0 && final {
		return true, false
	}
	return false, c == 0
}

type simControl struct {
	tKey, tIdx                           uint64
	remaining, bucket, done, src         int64
	srcCount, outCount, bufCount, blocks int64
}

// simChoose is choose: the bucket of hist holding the remaining-th composite.
func simChoose(g simGeometry, hist []uint64, q int, k int64, c *simControl) {
	r := c.remaining
	if q == 0 {
		r = k
	}
	before := int64(0)
	found := 0
	var res [4]int64
	for d := 0; d < topkDigits; d++ {
		h := int64(hist[d])
		if before < r && r <= before+h {
			found++
			tk, ti := c.tKey, c.tIdx
			g.place(uint64(d), q, &tk, &ti)
			res = [4]int64{int64(tk), int64(ti), r - before, h}
		}
		before += h
	}
	if found != 1 {
		panic(fmt.Sprintf("level %d: %d buckets hold composite %d of %d", q, found, r, before))
	}
	c.tKey, c.tIdx, c.remaining, c.bucket = uint64(res[0]), uint64(res[1]), res[2], res[3]
	if res[2] == res[3] || q+1 >= g.levels() {
		c.done = int64(q + 1)
	}
}

func simEmit(at int64, k int, b, i uint64, out [][2]uint64, outIdx []uint64) {
	if at >= int64(k) {
		panic(fmt.Sprintf("output %d past k = %d", at, k))
	}
	out[at] = [2]uint64{b, i}
	outIdx[at] = i
}

func simPass(r *rand.Rand, g simGeometry, bits []uint64, n, k int, c *simControl, hist [][]uint64,
	buf [2][2][]uint64, capacity, q, grid, tile int, out [][2]uint64, outIdx []uint64) {
	order := r.Perm(grid)
	for bi, block := range order {
		done := c.done
		if done != 0 && done < int64(q) {
			continue
		}
		final := done != 0 && done == int64(q)
		tk, ti := c.tKey, c.tIdx
		src := c.src
		count := int64(n)
		if src != 0 {
			count = c.srcCount
		}
		writeBuf := !final && q > 0 && q < g.levels() && c.bucket <= int64(capacity)
		simStats[[2]bool{writeBuf, src != 0}]++
		dst := 0
		if src == 1 {
			dst = 1
		}
		local := make([]uint64, topkDigits)
		for t := int64(block * tile); t < count; t += int64(grid * tile) {
			for p := t; p < min(t+int64(tile), count); p++ {
				var b, i uint64
				if src == 0 {
					b, i = bits[p], uint64(p)
				} else {
					b, i = buf[src-1][0][p], buf[src-1][1][p]
				}
				o, cand := simClassify(g, b, i, q, final, tk, ti)
				if o {
					at := c.outCount
					c.outCount++
					simEmit(at, k, b, i, out, outIdx)
				}
				if cand && !final {
					local[g.digit(b, i, q)]++
				}
				if writeBuf && cand {
					at := c.bufCount
					c.bufCount++
					if at < int64(capacity) {
						buf[dst][0][at], buf[dst][1][at] = b, i
					} else {
						panic("buffer overflow")
					}
				}
			}
		}
		if final {
			continue
		}
		for d, h := range local {
			hist[q][d] += h
		}
		c.blocks++
		if c.blocks != int64(grid) {
			if bi == len(order)-1 {
				panic("the last block did not see every block done")
			}
			continue
		}
		simChoose(g, hist[q], q, int64(k), c)
		c.blocks = 0
		if writeBuf {
			c.src = int64(dst + 1)
			c.srcCount = c.bufCount
		}
		c.bufCount = 0
	}
}

// simFilterStats counts the prefilter's outcomes: whether its candidates
// became level 0's source.
var simFilterStats = map[bool]int{}

// simFilter is topk.cuh's Filter: phases 0 and 1 choose the top two digits
// of the rank-th best sampled key (blocks in a random order, the last one
// choosing), phase 2 writes the keys up to the bound to buffer 0 and makes
// it the source when they number k to capacity.
func simFilter(r *rand.Rand, bits []uint64, keyBits, k int, c *simControl, buf [2][2][]uint64, capacity, stride, rank,
	grid, tile int) {
	n := len(bits)
	g := simGeometry{keyBits: keyBits, width: keyBits}
	sc := &simControl{}
	s := (n + stride - 1) / stride
	for q := 0; q < 2; q++ {
		hist := make([]uint64, topkDigits)
		km, _ := g.masks(q - 1)
		// Blocks stride over the sample; their order does not change a histogram.
		for j := 0; j < s; j++ {
			if b := bits[j*stride]; b&km == sc.tKey&km {
				hist[g.digit(b, 0, q)]++
			}
		}
		simChoose(g, hist, q, int64(rank), sc)
	}
	bound := sc.tKey | simLowMask(keyBits-2*topkDigitBits)
	for _, block := range r.Perm(grid) {
		for t := block * tile; t < n; t += grid * tile {
			for p := t; p < min(t+tile, n); p++ {
				if bits[p] > bound {
					continue
				}
				if at := c.bufCount; at < int64(capacity) {
					buf[0][0][at], buf[0][1][at] = bits[p], uint64(p)
				}
				c.bufCount++
			}
		}
	}
	fits := c.bufCount >= int64(k) && c.bufCount <= int64(capacity)
	simFilterStats[fits]++
	c.src, c.srcCount = 0, 0
	if fits {
		c.src, c.srcCount = 1, c.bufCount
	}
	c.bufCount = 0
}

func simSingle(g simGeometry, bits []uint64, n, k int, out [][2]uint64, outIdx []uint64) {
	c := &simControl{remaining: int64(k)}
	for q := 0; ; q++ {
		if q > g.levels() {
			panic("single: more levels than the composite has")
		}
		final := c.done != 0
		hist := make([]uint64, topkDigits)
		for p := 0; p < n; p++ {
			b, i := bits[p], uint64(p)
			o, cand := simClassify(g, b, i, q, final, c.tKey, c.tIdx)
			if o {
				at := c.outCount
				c.outCount++
				simEmit(at, k, b, i, out, outIdx)
			}
			if cand && !final {
				hist[g.digit(b, i, q)]++
			}
		}
		if final {
			if c.outCount != int64(k) {
				panic(fmt.Sprintf("single: %d outputs, want %d", c.outCount, k))
			}
			return
		}
		simChoose(g, hist, q, int64(k), c)
	}
}

// TestTopKSimulation checks the device algorithm, simulated, against a sort
// of the composites: key widths of 1 to 8 bytes, ties, equal keys, inputs
// within and past a tile, buffers that fit and that overflow, every k.
func TestTopKSimulation(t *testing.T) {
	r := rand.New(rand.NewPCG(37, 11))
	// A tile of 64: the pass path from n = 65; the block sort holds 512, so
	// larger sorted k take the radix sort (simSortBig).
	const threads, items = 32, 2
	bigSorts := map[int]int{}
	for _, keyBits := range []int{8, 16, 32, 64} {
		for _, n := range []int{1, 2, 3, 63, 64, 65, 100, 1000, 4097, 20_000, 100_000} {
			for _, kind := range []string{"random", "ties", "equal", "skewed"} {
				// The prefilter, with a sample of every 8th key, where its
				// plan allows (4- and 8-byte keys, k <= n / 4096); the
				// largest n with it alone.
				for _, stride := range []int{0, 8} {
					if stride == 0 && n == 100_000 || stride > 0 && n <= 4096 {
						continue
					}
					bits := make([]uint64, n)
					for i := range bits {
						switch kind {
						case "random":
							bits[i] = r.Uint64() & simLowMask(keyBits)
						case "ties":
							bits[i] = uint64(r.IntN(5)) << (keyBits - 3) // the top bits alone differ
						case "equal":
							bits[i] = simLowMask(keyBits) / 3
						case "skewed": // most keys in one top-level bucket, a few elsewhere
							bits[i] = (simLowMask(keyBits)/2 + uint64(r.IntN(1000))) & simLowMask(keyBits)
							if r.IntN(50) == 0 {
								bits[i] = r.Uint64() & simLowMask(keyBits)
							}
						}
					}
					type e struct{ b, i uint64 }
					want := make([]e, n)
					for i, b := range bits {
						want[i] = e{b, uint64(i)}
					}
					slices.SortFunc(want, func(a, b e) int {
						if c := cmp.Compare(a.b, b.b); c != 0 {
							return c
						}
						return cmp.Compare(a.i, b.i)
					})
					for _, k := range []int{1, 2, 7, n / 3, n / 2, n - 1, n} {
						if k < 1 || k > n {
							continue
						}
						for _, sorted := range []bool{false, true} {
							got, launches := simTopK(r, bits, keyBits, k, threads, items, sorted, stride)
							if n > threads*items && k <= threads*topkSortItems && launches > 2+topkLevels(n, keyBits/8)+1+4 {
								t.Fatalf("%d launches", launches)
							}
							if sorted && k > threads*topkSortItems {
								bigSorts[keyBits]++
							}
							if !sorted {
								slices.SortFunc(got, func(a, b [2]uint64) int {
									if c := cmp.Compare(a[0], b[0]); c != 0 {
										return c
									}
									return cmp.Compare(a[1], b[1])
								})
							}
							for j := 0; j < k; j++ {
								if got[j][0] != want[j].b || got[j][1] != want[j].i {
									t.Fatalf("keyBits=%d n=%d %s k=%d sorted=%v stride=%d: result %d is (%#x, %d), want (%#x, %d)",
										keyBits, n, kind, k, sorted, stride, j, got[j][0], got[j][1], want[j].b, want[j].i)
								}
							}
						}
					}
				}
			}
		}
	}
	// Every path ran: input to buffer, buffer to buffer, input alone
	// (overflow or level 0) and buffer to the final pass.
	for _, p := range [][2]bool{{true, false}, {true, true}, {false, false}, {false, true}} {
		if simStats[p] == 0 {
			t.Errorf("no pass block with (writes a buffer, reads one) = %v", p)
		}
	}
	// The prefilter's candidates became the source, and some fell back.
	for _, fits := range []bool{true, false} {
		if simFilterStats[fits] == 0 {
			t.Errorf("no prefilter whose candidates fit = %v", fits)
		}
	}
	// The radix-sorted path ran for every key width (8 to 32 bits by one
	// composite sort, 64 by two sorts).
	for _, keyBits := range []int{8, 16, 32, 64} {
		if bigSorts[keyBits] == 0 {
			t.Errorf("no sorted selection of %d-bit keys above the block sort", keyBits)
		}
	}
	t.Logf("pass blocks by (writes a buffer, reads one): %v; prefilters by fit: %v", simStats, simFilterStats)
}
