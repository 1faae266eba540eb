package runtime

import (
	"fmt"
	"unsafe"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
)

// The host side of the segmented sorts (kernels/include/gocccl/segmented_sort.cuh):
// the kernels, named by their suffix in the descriptions, the size classes
// and the scratch layout the header documents.
var (
	segsortInit      = segsortKernel("init")
	segsortClassify  = segsortKernel("classify")
	segsortSmall     = segsortKernel("small")
	segsortMedium    = segsortKernel("medium")
	segsortBig       = segsortKernel("big")
	segsortPlan      = segsortKernel("plan")
	segsortHistogram = segsortKernel("histogram")
	segsortOnesweep  = segsortKernel("onesweep")
	segsortEach      = segsortKernel("each") // the fallback: every segment in one launch
)

// segsortKernel is the index of a segmented sort's kernel, SegmentedSortKeys'
// and SegmentedSortPairs' alike.
func segsortKernel(suffix string) int {
	return kernelIndex(suffix, algo.SegmentedSortKeys, algo.SegmentedSortPairs)
}

const (
	segsortHeaderWords = 16  // counters: small, medium, big, large, tiles, portions, -, -, 2 tile counters, 6 unused
	segsortSmallMax    = 128 // a warp's segments: 32 lanes × 4 keys
	segsortMediumItems = 4   // keys per thread of the medium class
)

// The fallback (segsortEach, cub's DeviceSegmentedSortFallbackKernel) sorts
// every segment in one launch, a block per segment: no classify launch, no
// lists, no read-back. It takes calls of at most segsortFallbackSegments
// segments over at most segsortFallbackItems keys whose keys and values
// take at most segsortFallbackBytes, or whose segments are short on average:
//
//   - segments: cub's PARTITIONING_THRESHOLD of its sm_60+ policies (500).
//     With fewer segments than about four waves of blocks, the classify
//     path's extra launches (init, classify, one per class, 3–4 µs of host
//     time each) and its read-back cost more than they save: its warp class
//     packs 8–12 small segments in a block, but a few hundred blocks run in
//     one or two waves anyway.
//   - bytes: a segment longer than the tile is sorted by its block alone,
//     8-bit digits through global memory: one read of it counts every
//     pass's digits, then each pass that moves anything reads and writes
//     it (1 + 2R sweeps, R <= the key's bytes), where the classify path
//     spreads it over the GPU (Onesweep); n bounds the longest segment. On
//     the H200 (bench/NOTES.md, 2026-12-04, third session), the mixed
//     layout (segments of up to 65535 keys) at 2^14–2^17 keys, fallback /
//     classify path in µs: uint32 keys 23 / 70, 52 / 119, 81 / 124,
//     126 / 124; uint32 pairs 57 / 127, 62 / 123, 120 / 131, 155 / 136;
//     uint64 keys 84 / 166, 94 / 168, 180 / 177, 261 / 184; uint64 keys
//     with uint32 values 103 / 183, 119 / 184, 230 / 193, 335 / 205. The
//     break-even is at about 512 KiB of keys and values whatever their
//     sizes: 2^17 4-byte keys, 2^16 8-byte items, 2^15 12-byte items.
//     What costs is the longest segment, which the host does not know
//     (the offsets are on the device); the mean length n / segments bounds
//     it from below. When segments are short on average the fallback wins
//     at any n up to 2^17: 1024-key segments of uint64 keys with uint32
//     values at 2^16 took 18 µs through it and 48 µs through the classify
//     path (CUB 23 µs). So calls over more than 512 KiB still take the
//     fallback while their mean segment is at most segsortFallbackMean
//     keys (the mixed layout's mean is 2048–4681 at 2^14–2^17).
//   - items: 2^17, the largest n timed; it also keeps the fallback's
//     32-bit digit counters far from overflowing (a segment and its last
//     tile's padding must stay below 2^32).
const (
	segsortFallbackSegments = 500
	segsortFallbackItems    = 1 << 17
	segsortFallbackBytes    = 512 << 10
	segsortFallbackMean     = 2048
)

// The fallback's 32-bit digit counters hold a segment and its last tile's
// padding: this does not compile once segsortFallbackItems is too large.
const _ uint32 = segsortFallbackItems + 1<<16

// segsortFallback reports whether a sort of n keys in segs segments, each
// key with its value itemBytes bytes, takes the fallback kernel (see
// segsortFallbackSegments).
func segsortFallback(n, segs, itemBytes int) bool {
	return segs <= segsortFallbackSegments && n <= segsortFallbackItems &&
		(n*itemBytes <= segsortFallbackBytes || n <= segsortFallbackMean*segs)
}

// segsortClasses are the size limits of the classes for a policy and the
// capacities of their lists for n keys in segs segments: a class whose
// segments are longer than l holds at most n / (l+1) of them.
type segsortClasses struct {
	tile                        int // Onesweep's tile (the big class's limit when larger than mediumMax)
	mediumMax, bigMax           int
	capSmall, capMedium, capBig int
	capLarge                    int
	listWords                   int
}

func newSegsortClasses(n, segs, threads, tile int) segsortClasses {
	c := segsortClasses{tile: tile, mediumMax: threads * segsortMediumItems}
	c.bigMax = max(tile, c.mediumMax)
	c.capSmall = segs
	c.capMedium = min(segs, n/(segsortSmallMax+1))
	c.capBig = min(segs, n/(c.mediumMax+1))
	if c.bigMax == c.mediumMax {
		c.capBig = 0
	}
	c.capLarge = min(segs, n/(c.bigMax+1))
	// The lists, then tile_prefix and portion_prefix (capLarge + 1 each).
	c.listWords = segsortHeaderWords + c.capSmall + c.capMedium + c.capBig + 3*c.capLarge + 2
	return c
}

// largeScratch returns the bytes of the large segments' scratch and the
// offsets in it of the look-back words and of the alternate keys and values
// (0 when there is a single pass): the digit counts of each portion and pass
// and a done counter per segment, then a 32-bit look-back word per tile and
// digit (zeroed together), then the copies.
func (c segsortClasses) largeScratch(n, large, portions, tiles, passes, ksize, vsize int) (bytes, lookbackAt, keysAt, valuesAt int) {
	lookbackAt = 8 * (portions*passes*radixDigits + large)
	bytes = lookbackAt + 4*tiles*radixDigits
	if passes > 1 {
		keysAt = roundUp(bytes, radixAlign)
		bytes = keysAt + n*ksize
		if vsize > 0 {
			valuesAt = roundUp(bytes, radixAlign)
			bytes = valuesAt + n*vsize
		}
	}
	return bytes, lookbackAt, keysAt, valuesAt
}

// fallbackScratch returns the bytes of the fallback's alternate buffers
// (n keys of ksize bytes, then n values of vsize at valuesAt) and valuesAt:
// none when no segment can be longer than the big class or one pass (1-byte
// keys) goes straight to the output.
func (c segsortClasses) fallbackScratch(n, ksize, vsize int) (bytes, valuesAt int) {
	if n <= c.bigMax || ksize == 1 {
		return 0, 0
	}
	bytes = n * ksize
	if vsize > 0 {
		valuesAt = roundUp(bytes, radixAlign)
		bytes = valuesAt + n*vsize
	}
	return bytes, valuesAt
}

// segsortJob is one segmented sort on the GPU: keys (and values when vsize
// > 0) move from in to out.
type segsortJob struct {
	inst         *instance
	s            *Stream
	n, segs      int
	ksize, vsize int
	kin, kout    cuda.DevicePtr
	vin, vout    cuda.DevicePtr
	begin, end   cuda.DevicePtr
	desc         bool
}

// run enqueues the sort: with few segments the fallback alone, else
// classify, then the warp and block classes, then (after reading back how
// many long segments there are) Onesweep over their tiles.
func (j *segsortJob) run() error {
	if j.n == 0 || j.segs == 0 {
		return nil // every segment is empty once clamped to the input
	}
	d := j.s.dev
	k, err := j.inst.kernels(d)
	if err != nil {
		return err
	}
	threads := k.policy.BlockThreads
	c := newSegsortClasses(j.n, j.segs, threads, k.policy.Tile())
	if segsortFallback(j.n, j.segs, j.ksize+j.vsize) {
		return j.fallback(k, c)
	}
	bytes := 8 * c.listWords
	lists, err := d.tempAlloc(bytes, j.s)
	if err != nil {
		return j.inst.wrap(err, fmt.Sprintf("scratch memory of %d bytes", bytes))
	}
	err = j.sweep(k, c, lists)
	if ferr := d.tempFree(lists, j.s); err == nil && ferr != nil {
		err = j.inst.wrap(ferr, "freeing scratch memory")
	}
	return err
}

// segsortScratchMax bounds the fallback's alternate buffers that the
// stream's scratch is grown to hold (up to 2^17 pairs of 8-byte keys and
// values: 2 MiB); larger ones come from the pool.
const segsortScratchMax = 4 << 20

// fallback enqueues the one launch of the fallback, a block per segment.
// Its alternate buffers, when a segment may need them, are the stream's
// scratch past the reduction's counter (each pass writes a segment's part of
// them before the next reads it), grown once to hold them when they are at
// most segsortScratchMax bytes and no capture is open on the stream; larger
// ones (large values), and ones that do not fit while a capture records the
// call, come from the pool.
func (j *segsortJob) fallback(k kernels, c segsortClasses) error {
	bytes, valuesAt := c.fallbackScratch(j.n, j.ksize, j.vsize)
	var alt tileStates
	if bytes > 0 {
		if bytes <= segsortScratchMax {
			if err := j.s.growScratch(tileStatesOffset + bytes); err != nil {
				return j.inst.wrap(err, "")
			}
		}
		var err error
		if alt, err = j.s.tileStates(bytes); err != nil {
			return j.inst.wrap(err, fmt.Sprintf("scratch memory of %d bytes", bytes))
		}
	}
	var args cuda.Args
	j.data(&args, j.kin, j.kout, j.vin, j.vout)
	args.Ptr(j.begin)
	args.Ptr(j.end)
	args.Int64(int64(j.n))
	args.Int64(int64(j.segs))
	args.Ptr(alt.ptr)
	if j.vsize > 0 {
		altV := cuda.DevicePtr(0)
		if alt.ptr != 0 {
			altV = alt.ptr + cuda.DevicePtr(valuesAt)
		}
		args.Ptr(altV)
	}
	j.descending(&args)
	err := k.launch(segsortEach, j.segs, j.s, &args)
	if rerr := alt.release(); err == nil && rerr != nil {
		err = j.inst.wrap(rerr, "freeing scratch memory")
	}
	return err
}

func (j *segsortJob) sweep(k kernels, c segsortClasses, lists cuda.DevicePtr) error {
	d := j.s.dev
	threads := k.policy.BlockThreads
	var args cuda.Args
	args.Ptr(lists)
	args.Int64(segsortHeaderWords)
	if err := k.launch(segsortInit, 1, j.s, &args); err != nil {
		return err
	}
	args.Reset()
	j.data(&args, j.kin, j.kout, j.vin, j.vout)
	j.segments(&args, lists, c)
	if err := k.launch(segsortClassify, (j.segs+threads-1)/threads, j.s, &args); err != nil {
		return err
	}

	// Without a segment longer than the big class, the grids are the lists'
	// capacities and blocks past a list's end return at once; otherwise the
	// counts are read back.
	small, medium, big := c.capSmall, c.capMedium, c.capBig
	var large, portions, tiles int
	if c.capLarge > 0 {
		var counts [6]uint64
		if err := d.ctx.StreamSynchronize(j.s.handle); err != nil {
			return j.inst.wrap(err, "classifying the segments")
		}
		if err := d.ctx.MemcpyDtoH(unsafe.Pointer(&counts[0]), lists, int(unsafe.Sizeof(counts))); err != nil {
			return j.inst.wrap(err, "reading the segment classes")
		}
		small = min(small, int(counts[0]))
		medium = min(medium, int(counts[1]))
		big = min(big, int(counts[2]))
		large = min(c.capLarge, int(counts[3]))
		tiles = int(counts[4])
		portions = int(counts[5])
	}
	warps := threads / 32
	for _, l := range []struct{ kernel, grid int }{
		{segsortSmall, (small + warps - 1) / warps}, {segsortMedium, medium}, {segsortBig, big}} {
		if l.grid == 0 {
			continue
		}
		args.Reset()
		j.data(&args, j.kin, j.kout, j.vin, j.vout)
		j.segments(&args, lists, c)
		j.descending(&args)
		if err := k.launch(l.kernel, l.grid, j.s, &args); err != nil {
			return err
		}
	}
	if large == 0 {
		return nil
	}
	passes := j.ksize // 8-bit digits over the whole key
	bytes, lookbackAt, keysAt, valuesAt := c.largeScratch(j.n, large, portions, tiles, passes, j.ksize, j.vsize)
	tmp, err := d.tempAlloc(bytes, j.s)
	if err != nil {
		return j.inst.wrap(err, fmt.Sprintf("scratch memory of %d bytes", bytes))
	}
	// Launches per pass: a bound on any large segment's portions. No segment
	// has more than n items, and every other large segment has a portion.
	per := min((j.n+radixPortion(c.tile)-1)/radixPortion(c.tile), portions-large+1)
	err = j.onesweep(k, c, lists, tmp, lookbackAt, keysAt, valuesAt, tiles, passes, per)
	if ferr := d.tempFree(tmp, j.s); err == nil && ferr != nil {
		err = j.inst.wrap(ferr, "freeing scratch memory")
	}
	return err
}

// onesweep sorts the large segments: zero the digit counts and look-back
// state, scan the segments' tile and portion counts, count digits (and scan
// them), then one launch per digit pass and portion index. Launch
// q = p*portions + r sorts portion r of every large segment in pass p and
// hands portion r+1 where its digits start in that pass, so the launches run
// in order; portions bounds the portions of any segment.
func (j *segsortJob) onesweep(k kernels, c segsortClasses, lists, tmp cuda.DevicePtr, lookbackAt, keysAt, valuesAt, tiles, passes, portions int) error {
	threads := k.policy.BlockThreads
	words := lookbackAt/8 + tiles*radixDigits/2
	var args cuda.Args
	args.Ptr(tmp)
	args.Int64(int64(words))
	if err := k.launch(segsortInit, min((words+threads-1)/threads, k.maxBlocks), j.s, &args); err != nil {
		return err
	}
	args.Reset()
	j.segments(&args, lists, c)
	if err := k.launch(segsortPlan, 1, j.s, &args); err != nil {
		return err
	}
	args.Reset()
	args.Ptr(j.kin)
	j.segments(&args, lists, c)
	args.Ptr(tmp)
	j.descending(&args)
	if err := k.launch(segsortHistogram, tiles, j.s, &args); err != nil {
		return err
	}
	// The passes alternate between out and the scratch copy so that the last
	// one writes out; in is only read.
	altK, altV := tmp+cuda.DevicePtr(keysAt), tmp+cuda.DevicePtr(valuesAt)
	srcK, srcV := j.kin, j.vin
	for p := 0; p < passes; p++ {
		dstK, dstV := j.kout, j.vout
		if (passes-1-p)%2 == 1 {
			dstK, dstV = altK, altV
		}
		for r := 0; r < portions; r++ {
			args.Reset()
			j.data(&args, srcK, dstK, srcV, dstV)
			j.segments(&args, lists, c)
			args.Ptr(tmp)
			args.Ptr(tmp + cuda.DevicePtr(lookbackAt))
			args.Int64(int64(portions))
			args.Int64(int64(p*portions + r))
			j.descending(&args)
			if err := k.launch(segsortOnesweep, tiles, j.s, &args); err != nil {
				return err
			}
		}
		srcK, srcV = dstK, dstV
	}
	return nil
}

// data packs the key (and value) pointers of a kernel.
func (j *segsortJob) data(args *cuda.Args, kin, kout, vin, vout cuda.DevicePtr) {
	args.Ptr(kin)
	args.Ptr(kout)
	if j.vsize > 0 {
		args.Ptr(vin)
		args.Ptr(vout)
	}
}

// segments packs d_begin, d_end, n and the lists block.
func (j *segsortJob) segments(args *cuda.Args, lists cuda.DevicePtr, c segsortClasses) {
	args.Ptr(j.begin)
	args.Ptr(j.end)
	args.Int64(int64(j.n))
	args.Ptr(lists)
	args.Int64(int64(j.segs))
	args.Int64(int64(c.capMedium))
	args.Int64(int64(c.capBig))
	args.Int64(int64(c.capLarge))
}

// descending packs the direction.
func (j *segsortJob) descending(args *cuda.Args) {
	desc := j.desc
	args.Value(unsafe.Pointer(&desc), 1, 1)
}

// segsortTempBytes is TempStorageBytes of a segmented sort on d: the
// fallback's alternate buffers, or the lists and the large segments'
// scratch for as many long segments and tiles as n keys can hold.
func segsortTempBytes(inst *instance, d *Device, n, segs, ksize, vsize int) (int, error) {
	if n < 0 || segs < 0 {
		return 0, inst.errorf("negative length %d or segment count %d", n, segs)
	}
	if err := inst.enter(d); err != nil {
		return 0, inst.wrap(err, "")
	}
	defer d.exit()
	if d.ctx == nil || n == 0 || segs == 0 {
		return 0, nil
	}
	k, err := inst.kernels(d)
	if err != nil {
		return 0, err
	}
	return newSegsortClasses(n, segs, k.policy.BlockThreads, k.policy.Tile()).maxBytes(n, segs, ksize, vsize), nil
}

// maxBytes bounds the scratch of a Run over n keys of ksize bytes (and
// values of vsize) in segs segments: the fallback's alternate buffers, or
// the lists and the large segments' scratch for as many long segments,
// portions and tiles as n keys can hold.
func (c segsortClasses) maxBytes(n, segs, ksize, vsize int) int {
	if segsortFallback(n, segs, ksize+vsize) {
		bytes, _ := c.fallbackScratch(n, ksize, vsize)
		return bytes
	}
	bytes := 8 * c.listWords
	if c.capLarge > 0 {
		// A large segment of l > tile keys has ceil(l / tile) <= l/tile + 1
		// tiles and ceil(l / portion) <= l/portion + 1 portions.
		tiles := n/c.tile + c.capLarge
		portions := n/radixPortion(c.tile) + c.capLarge
		large, _, _, _ := c.largeScratch(n, c.capLarge, portions, tiles, ksize, ksize, vsize)
		bytes += large
	}
	return bytes
}
