package runtime

import (
	"fmt"
	"math/bits"
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
	topkSort   = kernelIndex("sort", algo.TopKKeys, algo.TopKPairs)
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
)

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

// topkScratch returns the scratch bytes of a selection and the offset of
// the outputs' positions in it (for the sort kernel; 0 when unsorted).
func topkScratch(n, k, tile int, sorted bool) (bytes, posAt int) {
	if n <= tile {
		if !sorted {
			return 0, 0
		}
		return 8 * k, 0
	}
	bytes = topkBufsAt + 32*topkCap(n, tile)
	if sorted {
		posAt = bytes
		bytes += 8 * k
	}
	return bytes, posAt
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
	if j.o.Sorted && j.k > k.policy.BlockThreads*topkSortItems {
		return j.inst.errorf("sorted top-k of k = %d: this image sorts at most %d", j.k, k.policy.BlockThreads*topkSortItems)
	}
	bytes, posAt := topkScratch(j.n, j.k, tile, j.o.Sorted)
	var tmp cuda.DevicePtr
	if bytes > 0 {
		if tmp, err = d.tempAlloc(bytes, j.s); err != nil {
			return j.inst.wrap(err, fmt.Sprintf("scratch memory of %d bytes", bytes))
		}
	}
	err = j.launches(k, tmp, posAt)
	if bytes > 0 {
		if ferr := d.tempFree(tmp, j.s); err == nil && ferr != nil {
			err = j.inst.wrap(ferr, "freeing scratch memory")
		}
	}
	return err
}

func (j *topkJob) launches(k kernels, tmp cuda.DevicePtr, posAt int) error {
	tile := k.policy.Tile()
	var args cuda.Args
	positions := tmp + cuda.DevicePtr(posAt)
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
	args.Reset()
	j.data(&args)
	args.Int64(int64(j.n))
	args.Int64(int64(j.k))
	args.Ptr(positions)
	j.largest(&args)
	return k.launch(topkSort, 1, j.s, &args)
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
func topkTempBytes(inst *instance, d *Device, n, k int, o TopKOptions) (int, error) {
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
	bytes, _ := topkScratch(n, k, kk.policy.Tile(), o.Sorted)
	return bytes, nil
}
