package runtime

import (
	"fmt"
	"sync"
)

// Determinism is what a reduction promises about the bits of its result,
// after cuda::execution::determinism of CUB 3 (Reduce and TransformReduce
// take one through WithDeterminism). It matters for operators whose
// result depends on the order of the operands, floating-point sums above
// all; an integer sum is the same in every mode.
type Determinism int

const (
	// RunToRun, the zero value and the default, gives the same bits for the
	// same input, n, init, instance and GPU (model and SM count) on every
	// run: the grid is min(tiles, resident blocks), and the tiles a block
	// folds and the tree that combines them follow from it, so a GPU with
	// another SM count or occupancy (another model, another policy, a
	// heavier operator), or the CPU backend with another worker count, may
	// round a float sum differently. This is the fastest tree for the GPU.
	RunToRun Determinism = iota
	// GPUToGPU gives the same bits for the same input, n and init on any
	// GPU, any grid and the CPU backend, whatever its worker count: the
	// reduction tree is fixed by n alone (tiles of 4096 items, each folded
	// by 256 lanes and combined in a fixed halving tree, the tiles' values
	// reduced as an input of the same shape; kernels/include/gocccl/
	// reduce.cuh spells it out). The CPU backend computes the same tree
	// with the same operand order, so its results equal the GPU's bit for
	// bit, NaN payloads included. It costs a little GPU throughput (item
	// loads of one word, a tree in shared memory) and scratch for one
	// value per 4096 items. group.Reduce reduces each shard in the
	// handle's mode and combines the shards in rank order, so there the
	// bits are fixed by the sharding. SegmentedReduce has no modes yet.
	GPUToGPU
	// NotGuaranteed lets the implementation pick any order, even one that
	// changes from run to run (CUB 3 sums floats with atomics there). Today
	// it runs RunToRun's kernels, which already make one launch and no
	// allocation, what CUB's atomic path saves over its two-pass default;
	// an atomicAdd float sum would save only the last block's pass over
	// the partials, would be correct only for an operator that is exactly
	// Go's float + (gocccl-gen does not yet tell the runtime so), could not
	// write through an output iterator, and would give the GPU's NaN
	// payloads instead of Go's (gosem.cuh). Code asking for NotGuaranteed
	// states that it needs no reproducibility and gets a faster path when
	// one exists.
	NotGuaranteed
)

// String returns the constant's name.
func (d Determinism) String() string {
	switch d {
	case RunToRun:
		return "RunToRun"
	case GPUToGPU:
		return "GPUToGPU"
	case NotGuaranteed:
		return "NotGuaranteed"
	}
	return fmt.Sprintf("Determinism(%d)", int(d))
}

func (d Determinism) check(what string) error {
	if d < RunToRun || d > NotGuaranteed {
		return fmt.Errorf("gocccl: %s: unknown determinism %v", what, d)
	}
	return nil
}

// The fixed tree of GPUToGPU (reduce.cuh's DET_LANES, DET_ITEMS, DET_TILE).
const (
	detLanes = 256
	detItems = 16
	detTile  = detLanes * detItems
)

// detTileValue is the value of one tile, tile[0:m] with 1 <= m <= detTile,
// in GPUToGPU's tree: lane l folds items l, l+256, ... in order, then the
// present lanes are combined by halving, lane[l] = op(lane[l], lane[l+s]).
// get(i) returns item i of the tile, transformed.
func detTileValue[T any](op func(T, T) T, m int, get func(i int) T) T {
	var lanes [detLanes]T
	present := min(m, detLanes)
	for l := 0; l < present; l++ {
		acc := get(l)
		for i := l + detLanes; i < m; i += detLanes {
			acc = op(acc, get(i))
		}
		lanes[l] = acc
	}
	for s := detLanes / 2; s > 0; s >>= 1 {
		for l := 0; l < s && l+s < present; l++ {
			lanes[l] = op(lanes[l], lanes[l+s])
		}
		present = min(present, s)
	}
	return lanes[0]
}

// reduceDetCPU is GPUToGPU's reduction of xf over in on the CPU backend:
// reduce.cuh's reduce_deterministic, operand for operand. The tiles of
// the first level are spread over workers goroutines; the result does not
// depend on workers.
func reduceDetCPU[In, T any](xf func(In) T, op func(T, T) T, in []In, init T, workers int) (T, error) {
	n := len(in)
	if n == 0 {
		return init, nil
	}
	tiles := (n + detTile - 1) / detTile
	level := make([]T, tiles)
	err := detParallel(tiles, workers, func(t int) {
		base := t * detTile
		level[t] = detTileValue(op, min(detTile, n-base), func(i int) T { return xf(in[base+i]) })
	})
	if err != nil {
		return init, err
	}
	for len(level) > 1 {
		next := make([]T, (len(level)+detTile-1)/detTile)
		for t := range next {
			base := t * detTile
			next[t] = detTileValue(op, min(detTile, len(level)-base), func(i int) T { return level[base+i] })
		}
		level = next
	}
	return op(init, level[0]), nil
}

// detParallel calls body(t) for every tile t < tiles on up to workers
// goroutines, turning a panic of the operator into an error.
func detParallel(tiles, workers int, body func(t int)) (err error) {
	w := max(1, min(workers, tiles/4)) // a goroutine takes 4 tiles or more
	var wg sync.WaitGroup
	var once sync.Once
	for g := 0; g < w; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					once.Do(func() { err = fmt.Errorf("gocccl: operator panicked on the CPU backend: %v", r) })
				}
			}()
			for t := g; t < tiles; t += w {
				body(t)
			}
		}()
	}
	wg.Wait()
	return err
}

// identity is Reduce's transform in reduceDetCPU.
func identity[T any](x T) T { return x }
