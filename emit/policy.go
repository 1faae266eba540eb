package emit

import "github.com/gocccl/gocccl/model"

// Policy is the launch configuration a kernel is compiled with for one target
// architecture; the runtime launches exactly this.
type Policy struct {
	BlockThreads   int
	ItemsPerThread int
}

// Tile returns the number of items one block processes per tile.
func (p Policy) Tile() int { return p.BlockThreads * p.ItemsPerThread }

// PolicyFor is the tuning table: the policy of algorithm alg over elements of
// elemSize bytes on compute capability arch (× 10). It is the one place to
// change tuning; CUDASource and GoGlue both read it. The values are CUB's
// sm_60+ tuning scaled by item size as cub::MemBoundScaling does (about 64
// bytes in flight per thread per tile; see the comment block at the top of
// kernels/include/gocccl/reduce.cuh and transform.cuh):
//
//	Reduce:                256 threads × clamp(64/size, 1, 32) items
//	                       (1, 2 bytes: 32; 4: 16; 8: 8; 16: 4)
//	Unary/BinaryTransform: 256 threads × clamp(32/size, 1, 32) items
//	                       (1 byte: 32; 2: 16; 4: 8; 8: 4; 16: 2)
//
// No entry depends on arch yet; the parameter is there so that per-GPU tuning
// lands here without changing any caller.
func PolicyFor(alg model.Algorithm, elemSize int64, arch int) Policy {
	size := max(elemSize, 1)
	switch alg {
	case model.Reduce:
		return Policy{BlockThreads: 256, ItemsPerThread: int(min(32, max(1, 64/size)))}
	case model.UnaryTransform, model.BinaryTransform:
		return Policy{BlockThreads: 256, ItemsPerThread: int(min(32, max(1, 32/size)))}
	}
	return Policy{BlockThreads: 256, ItemsPerThread: 1}
}

// instancePolicy returns the policy of an instance on arch. The element size
// is the instance's widest element type: a transform from int8 to float64 is
// tuned as an 8-byte transform.
func instancePolicy(in *model.Instance, arch int) Policy {
	var size int64
	for _, t := range in.Types {
		size = max(size, t.Size())
	}
	return policyFor(in.Algorithm, size, arch)
}

// policyFor is PolicyFor; tests replace it to check per-architecture output.
var policyFor = PolicyFor
