package runtime

import (
	"fmt"
	"unsafe"

	"github.com/gocccl/gocccl/runtime/cuda"
)

// The host side of Onesweep (kernels/include/gocccl/radix_sort.cuh): the
// kernels in the description's order, and the scratch layout the header
// documents.
const (
	radixInit = iota
	radixHistogram
	radixOnesweep
	radixSingle

	radixStateWords = 8*256 + 8 // digit counts of 8 passes, 8 tile counters
	radixDigits     = 256
	radixAlign      = 256
)

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
}

// radixScratch returns the scratch bytes of a sort and the offsets of the
// alternate key and value buffers in it (0: none).
func radixScratch(n, tile, passes, ksize, vsize int, alt bool) (bytes, keysAt, valuesAt int) {
	if n <= tile || passes == 0 {
		return 0, 0, 0
	}
	tiles := (n + tile - 1) / tile
	bytes = 8 * (radixStateWords + tiles*radixDigits)
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
		return flipped, k.launch(radixSingle, 1, j.s, &args)
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
	tile := k.policy.Tile()
	tiles := (j.n + tile - 1) / tile
	words := radixStateWords + tiles*radixDigits
	var args cuda.Args
	args.Ptr(tmp)
	args.Int64(int64(words))
	threads := k.policy.BlockThreads
	if err := k.launch(radixInit, min((words+threads-1)/threads, k.maxBlocks), j.s, &args); err != nil {
		return err
	}
	args.Reset()
	args.Ptr(j.kin)
	args.Int64(int64(j.n))
	args.Ptr(tmp)
	j.window(&args)
	if err := k.launch(radixHistogram, min(tiles, max(1, 4*j.s.dev.info.Multiprocessors)), j.s, &args); err != nil {
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
		args.Reset()
		j.data(&args, srcK, dstK, srcV, dstV)
		args.Int64(int64(j.n))
		args.Ptr(tmp)
		args.Int64(int64(p))
		j.window(&args)
		if err := k.launch(radixOnesweep, tiles, j.s, &args); err != nil {
			return err
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
