package runtime

import (
	"fmt"
	"math"
	"math/bits"
	"os"
	"unsafe"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
)

// The host side of the radix select (kernels/include/gocccl/topk.cuh): its
// kernels, named by their suffix in the descriptions, and the scratch
// layout the header documents.
var (
	topkInit   = kernelIndex("init", algo.TopKKeys, algo.TopKPairs)
	topkPass   = kernelIndex("pass", algo.TopKKeys, algo.TopKPairs)
	topkSingle = kernelIndex("single", algo.TopKKeys, algo.TopKPairs)
	topkFilter = kernelIndex("filter", algo.TopKKeys, algo.TopKPairs)
	topkSort   = kernelIndex("sort", algo.TopKKeys, algo.TopKPairs)
	// Sorted selections of more than the block sort holds.
	topkOrder     = kernelIndex("order", algo.TopKKeys, algo.TopKPairs)
	topkWriteBack = kernelIndex("gather", algo.TopKKeys, algo.TopKPairs)
	// topkRadix is the Onesweep over their sort items: topk_init zeroes its
	// state as radix_sort_init does.
	topkRadix = radixKernels{
		init:      topkInit,
		histogram: kernelIndex("sort_histogram", algo.TopKKeys, algo.TopKPairs),
		onesweep:  kernelIndex("sort_onesweep", algo.TopKKeys, algo.TopKPairs),
		single:    -1,
	}
)

const (
	topkDigitBits = 11
	topkDigits    = 1 << topkDigitBits
	topkMaxLevels = 12
	// topkHistBytes and topkCtrlBytes are HIST_BYTES and CTRL_BYTES: the
	// 32-bit histograms of every level, then the control words.
	topkHistBytes = topkMaxLevels * topkDigits * 4
	topkCtrlBytes = 128
	// topkBufsAt is where the candidate buffers start.
	topkBufsAt = (topkHistBytes + topkCtrlBytes + 255) / 256 * 256
	// topkSortItems is SORT_ITEMS: the sort kernel's items a thread.
	topkSortItems = 16
	// topkSampleBytes is SAMPLE_BYTES: the prefilter's two histograms and
	// control words.
	topkSampleBytes = 2*topkDigits*4 + topkCtrlBytes
)

// The prefilter (topk.cuh's <sym>_filter) runs for selections of at least
// topkFilterMin keys of 4 or 8 bytes and k <= n / topkFilterShare, with a
// sample of every topkFilterStride-th key: at 2^22 keys a sample of 16384.
// GOCCCL_TOPK_FILTER=off turns it off (for A/B timing): on an H100 it took
// k = 16 of 2^28 random uint32 keys from 1653 to 530 µs and of float32 keys
// in [0, 1) from 2841 to 544 µs (0.095× and 0.092× a full radix sort).
const (
	topkFilterMin    = 1 << 22
	topkFilterShare  = 4096
	topkFilterStride = 256
)

var topkFilterOn = os.Getenv("GOCCCL_TOPK_FILTER") != "off"

// topkFilterPlan returns the sample rank of the prefilter of a selection of
// k from n keys of ksize bytes, and false when it does not run: the
// sample's expected count of keys before the k-th plus four standard
// deviations and 16, so that the bound it finds lies past the k-th key
// unless the sample misleads (then the passes read the input as without
// it).
func topkFilterPlan(n, k, ksize, stride int) (rank int, ok bool) {
	if ksize < 4 || k < 1 || k > n/topkFilterShare || stride < 1 {
		return 0, false
	}
	s := (n + stride - 1) / stride
	e := float64(k) * float64(s) / float64(n)
	return min(s, int(math.Ceil(e+4*math.Sqrt(e)))+16), true
}

// topkIdxBits is the width of the composites' position part, bits.Len(n-1).
func topkIdxBits(n int) int {
	if n <= 1 {
		return 0
	}
	return bits.Len64(uint64(n - 1))
}

// topkLevels returns the digit levels of a selection of n keys of ksize
// bytes: the composite's width over 11 bits.
func topkLevels(n, ksize int) int {
	return (8*ksize + topkIdxBits(n) + topkDigitBits - 1) / topkDigitBits
}

// topkCap is the capacity of each candidate buffer: a pass writes its
// candidates there when they fit (a uniform level-0 bucket holds n/2048),
// else the next pass reads the input again.
func topkCap(n, tile int) int { return min(n, max(tile, n/128)) }

// topkLayout is where a selection's scratch holds what (byte offsets; 0:
// not there).
type topkLayout struct {
	bytes int
	// posAt holds the outputs' k positions when sorted.
	posAt int
	// A sorted selection of more than sortMax results (big): its sort
	// items' bits and their alternate, the positions' alternate, and the
	// Onesweep scratch of k items.
	big                     bool
	bitsAt, bitsAlt, posAlt int
	radixAt                 int
	// sampleAt holds the prefilter's sample state (topkSampleBytes) when
	// it runs (rank > 0).
	sampleAt, rank int
}

// topkScratch returns the scratch layout of a selection of k from n keys
// of ksize bytes: tile is the image's tile, sortMax the most results its
// block sort holds, filter whether the prefilter may run.
func topkScratch(n, k, ksize, tile, sortMax int, sorted, filter bool) topkLayout {
	var l topkLayout
	next := func(size int) int {
		at := roundUp(l.bytes, radixAlign)
		l.bytes = at + size
		return at
	}
	if n <= tile {
		if sorted {
			l.bytes = 8 * k
		}
	} else {
		l.bytes = topkBufsAt + 32*topkCap(n, tile)
		if sorted {
			l.posAt = l.bytes
			l.bytes += 8 * k
		}
		if rank, ok := topkFilterPlan(n, k, ksize, topkFilterStride); filter && n >= topkFilterMin && ok {
			l.rank = rank
			l.sampleAt = next(topkSampleBytes)
		}
	}
	if !sorted || k <= sortMax {
		return l
	}
	l.big = true
	l.bitsAt, l.bitsAlt, l.posAlt = next(8*k), next(8*k), next(8*k)
	l.radixAt = next(8 * (radixStateWords + radixLookbackWords(k, tile)))
	return l
}

// topkSortStep is one radix sort of a big sorted selection's items: by
// their positions (the bits carried as values) or by their bits (the
// positions carried), over bits [begin, end) of the sort keys.
type topkSortStep struct {
	byPos      bool
	begin, end int
}

// topkSortPlan returns how a big sorted selection of n keys of ksize bytes
// orders its k results by composite: shift > 0 when the composite (the
// key's ordered bits above bits.Len(n-1) position bits) fits 64 bits and
// is itself the sort key, then one sort; else two stable sorts, by
// position and then by key bits.
func topkSortPlan(n, ksize int) (shift int, steps []topkSortStep) {
	keyBits, idxBits := 8*ksize, topkIdxBits(n)
	if keyBits+idxBits <= 64 && idxBits > 0 {
		return idxBits, []topkSortStep{{begin: 0, end: keyBits + idxBits}}
	}
	if idxBits == 0 {
		return 0, []topkSortStep{{begin: 0, end: keyBits}}
	}
	return 0, []topkSortStep{{byPos: true, begin: 0, end: idxBits}, {begin: 0, end: keyBits}}
}

// topkJob is one selection on the GPU: the k best of n keys (and their
// values when vsize > 0) from kin to kout.
type topkJob struct {
	inst         *instance
	s            *Stream
	n, k         int
	ksize, vsize int
	o            TopKOptions
	kin, kout    cuda.DevicePtr
	vin, vout    cuda.DevicePtr
}

// run enqueues the selection: init, the passes of every level (or the
// single block for n within a tile), then the sort when sorted. k > 0.
func (j *topkJob) run() error {
	d := j.s.dev
	k, err := j.inst.kernels(d)
	if err != nil {
		return err
	}
	tile := k.policy.Tile()
	l := topkScratch(j.n, j.k, j.ksize, tile, k.policy.BlockThreads*topkSortItems, j.o.Sorted, topkFilterOn)
	if l.big && (j.n <= tile || j.k <= tile) {
		// The image's policy sorts fewer items in a block than its tile
		// holds: TopKPolicy keeps them equal, and Onesweep has no
		// single-tile kernel here.
		return j.inst.errorf("sorted top-k of k = %d from %d keys: this image's block sort holds %d, its tile %d",
			j.k, j.n, k.policy.BlockThreads*topkSortItems, tile)
	}
	bytes := l.bytes
	var tmp cuda.DevicePtr
	if bytes > 0 {
		if tmp, err = d.tempAlloc(bytes, j.s); err != nil {
			return j.inst.wrap(err, fmt.Sprintf("scratch memory of %d bytes", bytes))
		}
	}
	err = j.launches(k, tmp, l)
	if bytes > 0 {
		if ferr := d.tempFree(tmp, j.s); err == nil && ferr != nil {
			err = j.inst.wrap(ferr, "freeing scratch memory")
		}
	}
	return err
}

func (j *topkJob) launches(k kernels, tmp cuda.DevicePtr, l topkLayout) error {
	tile := k.policy.Tile()
	var args cuda.Args
	positions := tmp + cuda.DevicePtr(l.posAt)
	if j.n <= tile {
		j.data(&args)
		args.Int64(int64(j.n))
		args.Int64(int64(j.k))
		args.Ptr(tmp) // the positions when sorted, else null
		j.largest(&args)
		if err := k.launch(topkSingle, 1, j.s, &args); err != nil {
			return err
		}
	} else {
		words := (topkHistBytes + topkCtrlBytes) / 8
		args.Ptr(tmp)
		args.Int64(int64(words))
		threads := k.policy.BlockThreads
		if err := k.launch(topkInit, (words+threads-1)/threads, j.s, &args); err != nil {
			return err
		}
		sorted := int64(0)
		if j.o.Sorted {
			sorted = 1
		}
		// One wave of pass blocks, each striding over its pass's source;
		// the last block of a launch picks the next digit.
		grid := max(1, min((j.n+tile-1)/tile, k.wave(topkPass)))
		if l.rank > 0 {
			if err := j.filter(k, tmp, l); err != nil {
				return err
			}
		}
		levels := topkLevels(j.n, j.ksize)
		for level := 0; level <= levels; level++ {
			args.Reset()
			j.data(&args)
			args.Int64(int64(j.n))
			args.Int64(int64(j.k))
			args.Ptr(tmp)
			args.Int64(int64(topkCap(j.n, tile)))
			args.Int64(sorted)
			args.Int64(int64(level))
			j.largest(&args)
			if err := k.launch(topkPass, grid, j.s, &args); err != nil {
				return err
			}
		}
	}
	if !j.o.Sorted || j.k == 1 {
		return nil
	}
	if l.big {
		return j.sortBig(k, tmp, l)
	}
	args.Reset()
	j.data(&args)
	args.Int64(int64(j.n))
	args.Int64(int64(j.k))
	args.Ptr(positions)
	j.largest(&args)
	return k.launch(topkSort, 1, j.s, &args)
}

// filter enqueues the prefilter: its sample state zeroed, then phases 0
// and 1 over the sample and phase 2 over the input (topk.cuh, <sym>_filter).
func (j *topkJob) filter(k kernels, tmp cuda.DevicePtr, l topkLayout) error {
	sample := tmp + cuda.DevicePtr(l.sampleAt)
	threads := k.policy.BlockThreads
	words := topkSampleBytes / 8
	var args cuda.Args
	args.Ptr(sample)
	args.Int64(int64(words))
	if err := k.launch(topkInit, (words+threads-1)/threads, j.s, &args); err != nil {
		return err
	}
	s := (j.n + topkFilterStride - 1) / topkFilterStride
	wave := k.wave(topkFilter)
	for phase, grid := range []int{
		max(1, min((s+threads-1)/threads, wave)),
		max(1, min((s+threads-1)/threads, wave)),
		max(1, min((j.n+k.policy.Tile()-1)/k.policy.Tile(), wave)),
	} {
		args.Reset()
		args.Ptr(j.kin)
		args.Int64(int64(j.n))
		args.Int64(int64(j.k))
		args.Ptr(tmp)
		args.Ptr(sample)
		args.Int64(int64(topkCap(j.n, k.policy.Tile())))
		args.Int64(topkFilterStride)
		args.Int64(int64(l.rank))
		args.Int64(int64(phase))
		j.largest(&args)
		if err := k.launch(topkFilter, grid, j.s, &args); err != nil {
			return err
		}
	}
	return nil
}

// topkBuffers is a double buffer of sort items in scratch.
type topkBuffers struct{ cur, alt cuda.DevicePtr }

// sortBig sorts the k > sortMax results of a selection (keys in kout, their
// positions in scratch) best first by composite: the order kernel writes
// the sort items, Onesweep sorts them (topkSortPlan), the gather kernel
// writes the keys and values back.
func (j *topkJob) sortBig(k kernels, tmp cuda.DevicePtr, l topkLayout) error {
	at := func(off int) cuda.DevicePtr { return tmp + cuda.DevicePtr(off) }
	bitsBuf := topkBuffers{at(l.bitsAt), at(l.bitsAlt)}
	posBuf := topkBuffers{at(l.posAt), at(l.posAlt)}
	shift, steps := topkSortPlan(j.n, j.ksize)
	grid := max(1, min((j.k+k.policy.BlockThreads-1)/k.policy.BlockThreads, k.maxBlocks))

	var args cuda.Args
	j.data(&args)
	args.Int64(int64(j.n))
	args.Int64(int64(j.k))
	args.Ptr(posBuf.cur)
	args.Ptr(bitsBuf.cur)
	args.Int64(int64(shift))
	j.largest(&args)
	if err := k.launch(topkOrder, grid, j.s, &args); err != nil {
		return err
	}
	sort := radixJob{inst: j.inst, s: j.s, n: j.k, ksize: 8, vsize: 8, doubleBuffer: true, set: &topkRadix}
	for _, st := range steps {
		keys, values := &bitsBuf, &posBuf
		if st.byPos {
			keys, values = &posBuf, &bitsBuf
		}
		sort.kin, sort.kout, sort.vin, sort.vout = keys.cur, keys.alt, values.cur, values.alt
		sort.begin, sort.end = st.begin, st.end
		passes := radixPasses(st.begin, st.end)
		if err := sort.sweep(k, at(l.radixAt), 0, 0, passes, false); err != nil {
			return err
		}
		if passes%2 == 1 { // a double buffer's output is in its alternate
			keys.cur, keys.alt = keys.alt, keys.cur
			values.cur, values.alt = values.alt, values.cur
		}
	}
	args.Reset()
	j.data(&args)
	args.Int64(int64(j.n))
	args.Int64(int64(j.k))
	args.Ptr(bitsBuf.cur)
	args.Ptr(posBuf.cur)
	args.Int64(int64(shift))
	j.largest(&args)
	return k.launch(topkWriteBack, grid, j.s, &args)
}

// data packs the key (and value) pointers of a kernel.
func (j *topkJob) data(args *cuda.Args) {
	args.Ptr(j.kin)
	args.Ptr(j.kout)
	if j.vsize > 0 {
		args.Ptr(j.vin)
		args.Ptr(j.vout)
	}
}

// largest packs the kernels' last argument.
func (j *topkJob) largest(args *cuda.Args) {
	l := j.o.Largest
	args.Value(unsafe.Pointer(&l), 1, 1)
}

// topkTempBytes is TempStorageBytes of a selection on d.
func topkTempBytes(inst *instance, d *Device, n, k, ksize int, o TopKOptions) (int, error) {
	if n < 0 {
		return 0, inst.errorf("negative length %d", n)
	}
	if err := topkCheck(inst, n, k, -1, k, o); err != nil {
		return 0, err
	}
	if err := inst.enter(d); err != nil {
		return 0, inst.wrap(err, "")
	}
	defer d.exit()
	if d.ctx == nil || k == 0 {
		return 0, nil
	}
	kk, err := inst.kernels(d)
	if err != nil {
		return 0, err
	}
	return topkScratch(n, k, ksize, kk.policy.Tile(), kk.policy.BlockThreads*topkSortItems, o.Sorted, topkFilterOn).bytes, nil
}
