package runtime

import (
	"fmt"
	"unsafe"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
)

// The host side of Onesweep (kernels/include/gocccl/radix_sort.cuh): its
// kernels, named by their suffix in the descriptions, and the scratch
// layout the header documents.
var (
	radixInit      = kernelIndex("init", algo.RadixSortKeys, algo.RadixSortPairs)
	radixHistogram = kernelIndex("histogram", algo.RadixSortKeys, algo.RadixSortPairs)
	radixOnesweep  = kernelIndex("onesweep", algo.RadixSortKeys, algo.RadixSortPairs)
	radixSingle    = kernelIndex("single", algo.RadixSortKeys, algo.RadixSortPairs)
)

// radixKernels are the indices of a Onesweep's kernels among an
// instance's: a radix sort's own (radixOwn), or those of an algorithm that
// sorts with them (a sorted top-k, which has no single-tile kernel: -1).
type radixKernels struct{ init, histogram, onesweep, single int }

var radixOwn = radixKernels{radixInit, radixHistogram, radixOnesweep, radixSingle}

const (
	// Digit counts of 8 passes, the carries of 2 portions, 8 counter words;
	// then the 32-bit look-back words of one portion's tiles.
	radixStateWords = 8*256 + 2*256 + 8
	radixDigits     = 256
	radixAlign      = 256
	// radixPortionBits bounds a launch's portion: 2^29 - 1 items rounded down
	// to whole tiles, so that a look-back word's 29-bit count cannot overflow.
	radixPortionBits = 29
)

// radixPortion returns the items of one onesweep launch's portion.
func radixPortion(tile int) int { return ((1 << radixPortionBits) - 1) / tile * tile }

// radixLookbackWords returns the 8-byte words of the look-back state: one
// 32-bit word per digit and tile of the largest portion.
func radixLookbackWords(n, tile int) int {
	tiles := (min(n, radixPortion(tile)) + tile - 1) / tile
	return (tiles*radixDigits + 1) / 2
}

// radixJob is one sort on the GPU: keys (and values when vsize > 0) move
// from in to out. In a double buffer, in and out are its current and
// alternate buffers.
type radixJob struct {
	inst         *instance
	s            *Stream
	n            int
	ksize, vsize int
	kin, kout    cuda.DevicePtr
	vin, vout    cuda.DevicePtr
	begin, end   int
	desc         bool
	doubleBuffer bool
	// set is where the instance's Onesweep kernels are; nil: radixOwn.
	set *radixKernels
}

// kernelSet returns the indices of the job's kernels.
func (j *radixJob) kernelSet() radixKernels {
	if j.set != nil {
		return *j.set
	}
	return radixOwn
}

// radixScratch returns the scratch bytes of a sort and the offsets of the
// alternate key and value buffers in it (0: none).
func radixScratch(n, tile, passes, ksize, vsize int, alt bool) (bytes, keysAt, valuesAt int) {
	if n <= tile || passes == 0 {
		return 0, 0, 0
	}
	bytes = 8 * (radixStateWords + radixLookbackWords(n, tile))
	if alt {
		keysAt = roundUp(bytes, radixAlign)
		bytes = keysAt + n*ksize
		if vsize > 0 {
			valuesAt = roundUp(bytes, radixAlign)
			bytes = valuesAt + n*vsize
		}
	}
	return bytes, keysAt, valuesAt
}

func roundUp(n, a int) int { return (n + a - 1) / a * a }

// run enqueues the sort. For a double buffer it reports whether the output
// is in the alternate buffer: exactly when the number of passes is odd.
func (j *radixJob) run() (flipped bool, err error) {
	passes := radixPasses(j.begin, j.end)
	flipped = j.doubleBuffer && passes%2 == 1
	if j.n == 0 {
		return flipped, nil
	}
	d := j.s.dev
	if passes == 0 {
		if j.doubleBuffer || j.kin == j.kout {
			return false, nil
		}
		if err := j.copy(j.kout, j.kin, j.ksize); err != nil {
			return false, err
		}
		if j.vsize > 0 {
			return false, j.copy(j.vout, j.vin, j.vsize)
		}
		return false, nil
	}
	k, err := j.inst.kernels(d)
	if err != nil {
		return false, err
	}
	tile := k.policy.Tile()
	if j.n <= tile {
		kout, vout := j.kout, j.vout
		if j.doubleBuffer && !flipped {
			kout, vout = j.kin, j.vin // sorted in place: everything is read before it is written
		}
		var args cuda.Args
		j.data(&args, j.kin, kout, j.vin, vout)
		args.Int64(int64(j.n))
		j.window(&args)
		return flipped, k.launch(j.kernelSet().single, 1, j.s, &args)
	}

	inPlace := !j.doubleBuffer && j.kin == j.kout
	alt := !j.doubleBuffer && (passes > 1 || inPlace)
	bytes, keysAt, valuesAt := radixScratch(j.n, tile, passes, j.ksize, j.vsize, alt)
	tmp, err := d.tempAlloc(bytes, j.s)
	if err != nil {
		return false, j.inst.wrap(err, fmt.Sprintf("scratch memory of %d bytes", bytes))
	}
	err = j.sweep(k, tmp, keysAt, valuesAt, passes, inPlace)
	if ferr := d.tempFree(tmp, j.s); err == nil && ferr != nil {
		err = j.inst.wrap(ferr, "freeing scratch memory")
	}
	return flipped, err
}

// sweep launches the init, histogram and onesweep kernels.
func (j *radixJob) sweep(k kernels, tmp cuda.DevicePtr, keysAt, valuesAt, passes int, inPlace bool) error {
	set := j.kernelSet()
	tile := k.policy.Tile()
	portion := radixPortion(tile)
	portions := (j.n + portion - 1) / portion
	words := radixStateWords + radixLookbackWords(j.n, tile)
	var args cuda.Args
	args.Ptr(tmp)
	args.Int64(int64(words))
	threads := k.policy.BlockThreads
	if err := k.launch(set.init, min((words+threads-1)/threads, k.maxBlocks), j.s, &args); err != nil {
		return err
	}
	args.Reset()
	args.Ptr(j.kin)
	args.Int64(int64(j.n))
	args.Ptr(tmp)
	j.window(&args)
	// The histogram kernel's tiles: 16 keys per thread, 8 of 8 bytes; one
	// wave of its blocks (its occupancy x SMs: 3 per SM on sm_90 at 384
	// threads), each counting a tile in every grid's worth into its shared
	// histograms (bench/cub/tune/radix_shapes.cu --only hist; it was 2 per
	// SM).
	histTile := threads * 16
	if j.ksize >= 8 {
		histTile = threads * 8
	}
	if err := k.launch(set.histogram, min((j.n+histTile-1)/histTile, k.wave(set.histogram)), j.s, &args); err != nil {
		return err
	}

	// Buffers of each pass: a double buffer alternates between in and out;
	// otherwise the passes alternate between out and the scratch copy so
	// that the last one writes out (in is only read), and an in-place sort
	// alternates between in and the scratch copy and copies back at the end.
	altK, altV := tmp+cuda.DevicePtr(keysAt), tmp+cuda.DevicePtr(valuesAt)
	srcK, srcV := j.kin, j.vin
	for p := 0; p < passes; p++ {
		var dstK, dstV cuda.DevicePtr
		switch {
		case j.doubleBuffer:
			dstK, dstV = j.kout, j.vout
			if p%2 == 1 {
				dstK, dstV = j.kin, j.vin
			}
		case inPlace:
			dstK, dstV = altK, altV
			if p%2 == 1 {
				dstK, dstV = j.kin, j.vin
			}
		default:
			dstK, dstV = j.kout, j.vout
			if (passes-1-p)%2 == 1 {
				dstK, dstV = altK, altV
			}
		}
		// One launch per portion, q = p * portions + r (the kernel's pass).
		for r := 0; r < portions; r++ {
			items := min(portion, j.n-r*portion)
			args.Reset()
			j.data(&args, srcK, dstK, srcV, dstV)
			args.Int64(int64(j.n))
			args.Ptr(tmp)
			args.Int64(int64(p*portions + r))
			j.window(&args)
			if err := k.launch(set.onesweep, (items+tile-1)/tile, j.s, &args); err != nil {
				return err
			}
		}
		srcK, srcV = dstK, dstV
	}
	if inPlace && passes%2 == 1 {
		if err := j.copy(j.kout, altK, j.ksize); err != nil {
			return err
		}
		if j.vsize > 0 {
			return j.copy(j.vout, altV, j.vsize)
		}
	}
	return nil
}

// data packs the key (and value) pointers of a kernel.
func (j *radixJob) data(args *cuda.Args, kin, kout, vin, vout cuda.DevicePtr) {
	args.Ptr(kin)
	args.Ptr(kout)
	if j.vsize > 0 {
		args.Ptr(vin)
		args.Ptr(vout)
	}
}

// window packs begin_bit, end_bit and descending.
func (j *radixJob) window(args *cuda.Args) {
	args.Int64(int64(j.begin))
	args.Int64(int64(j.end))
	desc := j.desc
	args.Value(unsafe.Pointer(&desc), 1, 1)
}

// copy enqueues a device-to-device copy of n elements of size bytes.
func (j *radixJob) copy(dst, src cuda.DevicePtr, size int) error {
	if err := j.s.dev.ctx.MemcpyDtoDAsync(dst, src, j.n*size, j.s.handle); err != nil {
		return j.inst.wrap(err, "copying")
	}
	return nil
}

// radixTempBytes is TempStorageBytes of a sort on d.
func radixTempBytes(inst *instance, d *Device, n, ksize, vsize int, o RadixOptions, doubleBuffer bool) (int, error) {
	if n < 0 {
		return 0, inst.errorf("negative length %d", n)
	}
	begin, end, err := o.window(ksize)
	if err != nil {
		return 0, inst.errorf("%v", err)
	}
	if err := inst.enter(d); err != nil {
		return 0, inst.wrap(err, "")
	}
	defer d.exit()
	if d.ctx == nil {
		return 0, nil
	}
	k, err := inst.kernels(d)
	if err != nil {
		return 0, err
	}
	passes := radixPasses(begin, end)
	bytes, _, _ := radixScratch(n, k.policy.Tile(), passes, ksize, vsize, !doubleBuffer && passes > 1)
	return bytes, nil
}
