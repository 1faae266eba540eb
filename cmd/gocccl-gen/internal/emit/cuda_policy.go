package emit

import (
	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/arch"
)

// Policy is the launch configuration a kernel is compiled with for one
// target architecture; the runtime launches exactly this.
type Policy = arch.Policy

// instancePolicy returns the policy of an instance on architecture a, from
// its algorithm's tuning table (package algo). The element size is the
// instance's widest element type: a transform from int8 to float64 is tuned
// as an 8-byte transform.
func instancePolicy(in *model.Instance, a int) Policy {
	var size int64
	for _, t := range in.Types {
		size = max(size, t.Size())
	}
	return policyFor(in.Algorithm, size, a)
}

// hasMinBlocks reports whether in's policy asks for a minimum of blocks per
// multiprocessor on any architecture of targets: its entry points then take
// __launch_bounds__(threads, minblocks), minblocks 0 where an architecture
// asks for none. nvcc (11.8 and 13) treats 0 as no bound; 1 is not the same:
// it let ptxas give merge_tiles at 256 × 15 117 registers instead of 58
// (bench/NOTES.md, 2026-12-03).
func hasMinBlocks(in *model.Instance, targets []Target) bool {
	for _, a := range archs(targets) {
		if instancePolicy(in, a).MinBlocks > 0 {
			return true
		}
	}
	return false
}

// looksBack reports whether a kernel of in's algorithm takes the policy's
// look-back waits (algo.Kernel.Delay): the instance then has a _delay type.
func looksBack(in *model.Instance) bool {
	for _, k := range in.Algorithm.Kernels {
		if k.Delay {
			return true
		}
	}
	return false
}

// policyFor is the algorithm's tuning table; tests replace it to check
// per-architecture output.
var policyFor = func(alg *algo.Algorithm, size int64, a int) Policy { return alg.Policy(size, a) }
