package emit

import (
	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/arch"
	"github.com/gocccl/gocccl/model"
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

// policyFor is the algorithm's tuning table; tests replace it to check
// per-architecture output.
var policyFor = func(alg *algo.Algorithm, size int64, a int) Policy { return alg.Policy(size, a) }
