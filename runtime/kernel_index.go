package runtime

import (
	"strings"

	"github.com/gocccl/gocccl/internal/algo"
)

// The runtime launches an instance's kernels by their index in its
// description's Kernels (internal/algo), and takes every index from the
// description by the kernel's suffix: the order is stated there once.

// kernelLookup is one index the runtime took from the descriptions.
type kernelLookup struct {
	suffix string
	algs   []string
	index  int
}

// kernelLookups records every kernelIndex, for TestKernelIndices.
var kernelLookups []kernelLookup

// kernelIndex returns the index of the kernel named suffix in the Kernels
// of every description in algs (which share the code that launches it, so
// they must place it alike), or -1 where one lacks it or they disagree. A
// launch of -1 fails with an error (kernels.launchBlock), and
// TestKernelIndices fails in CI on any -1 taken here.
func kernelIndex(suffix string, algs ...*algo.Algorithm) int {
	names := make([]string, len(algs))
	for i, a := range algs {
		names[i] = a.Name
	}
	index := -1
	for i, a := range algs {
		k := a.KernelIndex(suffix)
		if i > 0 && k != index {
			k = -1
		}
		if k < 0 {
			index = -1
			break
		}
		index = k
	}
	if len(algs) == 0 {
		index = -1
	}
	kernelLookups = append(kernelLookups, kernelLookup{suffix, names, index})
	return index
}

// String names the lookup in a test's message.
func (l kernelLookup) String() string {
	return `kernel "` + l.suffix + `" of ` + strings.Join(l.algs, ", ")
}
