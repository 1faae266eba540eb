package emit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/iter"
)

// paramIter returns the composition an instance reads or writes kernel
// parameter p through, or nil for a plain buffer.
func paramIter(in *model.Instance, p algo.Param) *model.Iter {
	var names []string
	var its []*model.Iter
	switch {
	case p.Fixed:
		return nil
	case p.Kind == algo.In:
		names, its = in.Algorithm.Inputs(), in.Inputs
	case p.Kind == algo.Out:
		names, its = in.Algorithm.Outputs(), in.Outputs
	default:
		return nil
	}
	if i := slices.Index(names, p.Name); i >= 0 && i < len(its) {
		return its[i]
	}
	return nil
}

// iterCType spells the gocccl::it type of a composition
// (kernels/include/gocccl/iterator.cuh); a Slice at the top of an output is
// the plain pointer, inside a composition a Pointer or OutPointer.
func iterCType(e *opEmitter, in *model.Instance, it *model.Iter, output bool) string {
	const ns = "::gocccl::it::"
	t := cType(it.Type)
	sub := func(i int, output bool) string { return iterCType(e, in, it.In[i], output) }
	functor := func() string {
		return fmt.Sprintf("::%s::gocccl_functors::%s", e.ns, functorName(e, it.Op))
	}
	switch it.Kind {
	case iter.Slice:
		if output {
			return ns + "OutPointer<" + t + ">"
		}
		return ns + "Pointer<" + t + ">"
	case iter.Counting:
		return ns + "Counting<" + t + ">"
	case iter.Constant:
		return ns + "Constant<" + t + ">"
	case iter.Shuffle:
		return ns + "Shuffle"
	case iter.Transform:
		return ns + "Transform<" + t + ", " + sub(0, false) + ", " + functor() + ">"
	case iter.Permutation:
		return ns + "Permutation<" + sub(0, false) + ", " + sub(1, false) + ">"
	case iter.Reverse:
		return ns + "Reverse<" + sub(0, false) + ">"
	case iter.CacheModified:
		return fmt.Sprintf("%sCacheModified<%s, %d>", ns, t, it.Mode)
	case iter.Zip, iter.ZipOutput:
		var offs, subs []string
		for i, f := range it.Type.Fields {
			offs = append(offs, fmt.Sprint(f.Offset))
			if i < len(it.In) {
				subs = append(subs, sub(i, it.Kind == iter.ZipOutput))
			}
		}
		return fmt.Sprintf("%s%s<%s, %sOffsets<%s>, %s>", ns, it.Kind, t, ns, strings.Join(offs, ", "), strings.Join(subs, ", "))
	case iter.Discard:
		return ns + "Discard<" + t + ">"
	case iter.TransformOutput:
		return ns + "TransformOutput<" + t + ", " + sub(0, true) + ", " + functor() + ">"
	case iter.ReverseOutput:
		return ns + "ReverseOutput<" + sub(0, true) + ">"
	case iter.PermutationOutput:
		return ns + "PermutationOutput<" + sub(0, true) + ", " + sub(1, false) + ">"
	}
	return "?"
}
