package runtime

import (
	"fmt"
	"slices"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/iter"
)

// This file holds what the compactions (Select, Partition,
// ThreeWayPartition, Unique, UniqueByKey, RunLengthEncode) share: the
// launch sequence of kernels/include/gocccl/select.cuh: one pass with
// decoupled look-back over the stream's epoch tile states, and an init
// kernel that initializes them once per region (and writes the counts of
// an empty input). Their argument checks (buffer, checkBuffers) are in
// args.go.

// The compactions' kernels, by their suffix in the descriptions: every
// compaction's init, and the one sweep of those that have one
// (RunLengthEncode names its two: rleEncode, rleNonTrivial).
var (
	compactionInit  = kernelIndex("init", algo.Select, algo.Partition, algo.ThreeWayPartition, algo.Unique, algo.UniqueByKey, algo.RunLengthEncode)
	compactionSweep = kernelIndex("sweep", algo.Select, algo.Partition, algo.ThreeWayPartition, algo.Unique, algo.UniqueByKey)
)

// compactionCarry is the size of the look-back value that select.cuh carries
// between the tiles of a compaction, tiles tiles of tile items: long long
// (8 bytes) for one count (Select, Partition, Unique, UniqueByKey); for a
// pair (ThreeWayPartition's two counts, RunLengthEncode's count and
// position) an unsigned long long that packs both while the tiles hold
// fewer than 2^32 items (PackedCounts, PackedCountPos: packs_counts), else
// a Pair<long long> (WideCounts, WideCountPos: 16 bytes). The init kernel
// checks the region against this size and traps when it is short.
func compactionCarry(tiles, tile int, pair bool) int {
	if pair && tiles*tile >= 1<<32 {
		return 16
	}
	return 8
}

// compactionStateBytes is the epoch tile states of a compaction over tiles
// tiles of tile items (EpochTileState<S>::AllocationSize(tiles) for the
// carry S): none for at most one tile, which publishes nothing and looks
// back at nothing.
func compactionStateBytes(tiles, tile int, pair bool) int {
	if tiles <= 1 {
		return 0
	}
	// Every carry fits the epoch form (16 bytes at most): select.cuh has
	// no CUB-state form.
	bytes, _ := epochStateBytes(tiles, compactionCarry(tiles, tile, pair))
	return bytes
}

// compactionTiles returns the tiles of a compaction over n items on the
// bound kernels, or an error when they cannot be numbered with int32.
func (in *instance) compactionTiles(k kernels, n int) (int, error) {
	tile := k.policy.Tile()
	tiles := (n + tile - 1) / tile
	if tiles > 1<<31-1 {
		return 0, in.errorf("%d items need %d tiles of %d, more than 2^31-1", n, tiles, tile)
	}
	return tiles, nil
}

// compactionScratch returns the scratch memory of a compaction over n items
// on d: its epoch tile states, in the stream's own region, which the stream
// keeps and reuses with no allocation and no init launch per call (it grows
// once when a call needs more); 0 for at most one tile and on the CPU
// backend.
func (in *instance) compactionScratch(d *Device, n int, pair bool) (int, error) {
	if n < 0 {
		return 0, in.errorf("negative length %d", n)
	}
	if err := in.enter(d); err != nil {
		return 0, in.wrap(err, "")
	}
	defer d.exit()
	if d.ctx == nil {
		return 0, nil
	}
	k, err := in.kernels(d)
	if err != nil {
		return 0, err
	}
	tiles, err := in.compactionTiles(k, n)
	if err != nil {
		return 0, err
	}
	return compactionStateBytes(tiles, k.policy.Tile(), pair), nil
}

// compact runs a compaction over n items on the GPU: for n == 0 kernel 0
// alone, which writes zeros to the counts; for one tile the sweep alone,
// with no tile states; otherwise the sweep over the stream's epoch tile
// states (epochStates), after kernel 0 initializes them when they need it
// (a new, grown or exhausted region, or a captured call), so that a call is
// one launch in the steady state. Kernel sweep runs with the leading
// arguments in args followed by n, the tile states, their size and the
// call's epoch. The caller has entered s's device.
func (in *instance) compact(s *Stream, n, sweep int, pair bool, counts cuda.DevicePtr, args *cuda.Args) error {
	return in.compactThrough(s, n, sweep, pair, counts, args, nil, nil)
}

// compactThrough is compact for an instance that reads its inputs through
// the compositions ins and writes its outputs through outs (iter.Key's
// order; nil, or nil entries, for plain buffers).
func (in *instance) compactThrough(s *Stream, n, sweep int, pair bool, counts cuda.DevicePtr, args *cuda.Args, ins, outs []*iter.Node) error {
	d := s.dev
	k, err := in.kernelsThrough(d, ins, outs)
	if err != nil {
		return err
	}
	tiles, err := in.compactionTiles(k, n)
	if err != nil {
		return err
	}
	var init cuda.Args
	if tiles == 0 {
		init.Ptr(0)
		init.Int64(0)
		init.Int64(0)
		init.Ptr(counts)
		return k.launch(compactionInit, 1, s, &init)
	}
	var lb lookBack // the zero value for one tile: no states, epoch 0
	if tiles > 1 {
		bytes := compactionStateBytes(tiles, k.policy.Tile(), pair)
		if lb, err = s.epochStates(bytes); err != nil {
			return in.wrap(err, fmt.Sprintf("epoch tile states of %d bytes", bytes))
		}
		if lb.init {
			init.Ptr(lb.ptr)
			init.Int64(int64(lb.bytes))
			init.Int64(int64(tiles))
			init.Ptr(counts)
			err = k.launch(compactionInit, lb.initGrid(tiles, k.policy.BlockThreads), s, &init)
		}
	}
	if err == nil {
		args.Int64(int64(n))
		args.Ptr(lb.ptr)
		args.Int64(int64(lb.bytes))
		args.Uint32(lb.epoch)
		err = k.launch(sweep, tiles, s, args)
	}
	if ferr := lb.release(); err == nil && ferr != nil {
		err = in.wrap(ferr, "freeing scratch memory")
	}
	return err
}

// plainOutputs is the outputs of a call that writes every output of the
// instance's description to a plain buffer, for iter.Key.
func (in *instance) plainOutputs() []*iter.Node { return in.outputs() }

// outputs places the compositions of a call's outputs, given in Into's
// order (the description's IntoOutputs; nil for a plain buffer), among all
// the description's outputs, for iter.Key: the counts are plain buffers.
func (in *instance) outputs(nodes ...*iter.Node) []*iter.Node {
	all := in.key.Alg.Outputs()
	outs := make([]*iter.Node, len(all))
	for i, name := range in.key.Alg.IntoOutputs() {
		if i < len(nodes) {
			outs[slices.Index(all, name)] = nodes[i]
		}
	}
	return outs
}

// compactOver runs a compaction of one input and one output (Select,
// Partition, Unique) of which one is not a *Slice: an iterator composition
// bound for the call, which the instance declared with Over or Into (or an
// iterator.Slice leaf alone, its buffer). It checks what the plain Run
// checks, requires the compositions' kernels on both backends; on the CPU
// backend it evaluates the input, runs cpu (which returns the count) into
// a temporary and writes the temporary's first k elements through the
// output (all n when all is set: a partition), or it launches the
// compaction through the compositions.
func compactOver[T any](inst *instance, s *Stream, in Input[T], out Output[T], count *Slice[int64], all bool, cpu func(in, out []T, workers int) (int, error)) error {
	name := inst.name()
	a, err := input(name+" input", in)
	if err != nil {
		return err
	}
	dst, err := output(name+" output", out)
	if err != nil {
		return err
	}
	bcount := bufferOf(name, "count", count)
	bout := sinkBuffer(name, "output", dst)
	bufs := dst.written("output", []buffer{bout, bcount})
	if b, ok := srcBuffer(name, "input", a); ok {
		bufs = append(bufs, b)
	}
	if s, err = checkBuffers(name, s, bufs...); err != nil {
		return err
	}
	n := a.len()
	if err := bout.atLeast(name, n, "input elements it may receive"); err != nil {
		return err
	}
	if err := bcount.atLeast(name, 1, "count it receives"); err != nil {
		return err
	}
	ins, outs := []*iter.Node{a.node()}, inst.outputs(dst.node())
	if err := inst.enterThrough(s.dev, ins, outs); err != nil {
		return inst.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		h, err := a.host(s.dev)
		if err != nil {
			return inst.wrap(err, "")
		}
		o := dst.host(s.dev, n)
		k, err := cpu(h.host, o.host, s.dev.info.Workers)
		if err != nil {
			return inst.wrap(err, "")
		}
		if !all {
			o = firsts(o, k)
		}
		if err := dst.flush(o); err != nil {
			return inst.wrap(err, "")
		}
		count.host[0] = int64(k)
		return nil
	}
	var args cuda.Args
	if err := a.pack(&args); err != nil {
		return inst.wrap(err, "")
	}
	if err := dst.pack(&args); err != nil {
		return inst.wrap(err, "")
	}
	args.Ptr(count.ptr)
	return inst.compactThrough(s, n, compactionSweep, false, count.ptr, &args, ins, outs)
}

// errNilOperator is the error of a method called on a nil instance or one
// not made by its constructor.
func errNilOperator(alg string) error {
	return fmt.Errorf("gocccl: %s: nil operator", alg)
}
