package runtime

import (
	"fmt"
	"reflect"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/iter"
)

// UnaryTransformOp applies a unary operator to every element.
type UnaryTransformOp[In, Out any] struct {
	instance
	op func(In) Out
}

// UnaryTransform declares out[i] = op(in[i]) for op, a //gocccl:op function.
func UnaryTransform[In, Out any](op func(In) Out) *UnaryTransformOp[In, Out] {
	return &UnaryTransformOp[In, Out]{op: op, instance: newInstance(algo.UnaryTransform, []any{op}, reflect.TypeFor[In](), reflect.TypeFor[Out]())}
}

// Over declares the instance reading its input through the iterator
// composition in (package iterator); see ReduceOp.Over.
func (t *UnaryTransformOp[In, Out]) Over(in Iterator[In]) *UnaryTransformOp[In, Out] { return t }

// Into declares the instance writing through the output iterator
// composition out (package iterator); see ReduceOp.Over.
func (t *UnaryTransformOp[In, Out]) Into(out OutputIterator[Out]) *UnaryTransformOp[In, Out] {
	return t
}

// Run writes op(in[i]) to out[i] for every i; in and out have equal lengths
// (an output without one, such as iterator.Discard, takes in's). in and out
// are Slices or iterator compositions bound for the call that an instance
// declared with Over and Into. It is enqueued on s (nil means the default
// stream of in's device).
func (t *UnaryTransformOp[In, Out]) Run(s *Stream, in Input[In], out Output[Out]) error {
	if t == nil || t.op == nil {
		return fmt.Errorf("gocccl: UnaryTransform: nil operator")
	}
	src, err := input("UnaryTransform input", in)
	if err != nil {
		return err
	}
	dst, err := output("UnaryTransform output", out)
	if err != nil {
		return err
	}
	s, err = streamFor("UnaryTransform", s, src.dev(), dst.dev())
	if err != nil {
		return err
	}
	n := src.len()
	if m := dst.len(); m >= 0 && m != n {
		return fmt.Errorf("gocccl: UnaryTransform: input has %d elements, output %d", n, m)
	}
	if src.it == nil && dst.it == nil {
		err = t.enter(s.dev)
	} else {
		err = t.enterThrough(s.dev, []*iter.Node{src.node()}, []*iter.Node{dst.node()})
	}
	if err != nil {
		return t.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		h, err := src.host(s.dev)
		if err != nil {
			return t.wrap(err, "")
		}
		o := dst.host(s.dev, n)
		x, y := h.host, o.host
		if _, err := parallel(n, s.dev.info.Workers, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				y[i] = t.op(x[i])
			}
		}); err != nil {
			return err
		}
		return t.wrap(dst.flush(o), "")
	}
	if n == 0 {
		return nil
	}
	var args cuda.Args
	if err := src.pack(&args); err != nil {
		return t.wrap(err, "")
	}
	if err := dst.pack(&args); err != nil {
		return t.wrap(err, "")
	}
	args.Int64(int64(n))
	if src.it == nil && dst.it == nil {
		return launchTransform(&t.instance, s, n, &args, nil, nil)
	}
	return launchTransform(&t.instance, s, n, &args, []*iter.Node{src.node()}, []*iter.Node{dst.node()})
}

// BinaryTransformOp applies a binary operator to pairs of elements.
type BinaryTransformOp[A, B, Out any] struct {
	instance
	op func(A, B) Out
}

// BinaryTransform declares out[i] = op(a[i], b[i]) for op, a //gocccl:op
// function.
func BinaryTransform[A, B, Out any](op func(A, B) Out) *BinaryTransformOp[A, B, Out] {
	return &BinaryTransformOp[A, B, Out]{op: op, instance: newInstance(algo.BinaryTransform, []any{op}, reflect.TypeFor[A](), reflect.TypeFor[B](), reflect.TypeFor[Out]())}
}

// Over declares the instance reading its inputs through the iterator
// compositions a and b (package iterator; iterator.Slice for a plain
// buffer); see ReduceOp.Over.
func (t *BinaryTransformOp[A, B, Out]) Over(a Iterator[A], b Iterator[B]) *BinaryTransformOp[A, B, Out] {
	return t
}

// Into declares the instance writing through the output iterator
// composition out (package iterator); see ReduceOp.Over.
func (t *BinaryTransformOp[A, B, Out]) Into(out OutputIterator[Out]) *BinaryTransformOp[A, B, Out] {
	return t
}

// Run writes op(a[i], b[i]) to out[i] for every i; a, b and out have equal
// lengths (an output without one takes the inputs'). They are Slices or
// iterator compositions bound for the call that an instance declared with
// Over and Into. It is enqueued on s (nil means the default stream of a's
// device).
func (t *BinaryTransformOp[A, B, Out]) Run(s *Stream, a Input[A], b Input[B], out Output[Out]) error {
	if t == nil || t.op == nil {
		return fmt.Errorf("gocccl: BinaryTransform: nil operator")
	}
	sa, err := inputOf("BinaryTransform first input", a, true)
	if err != nil {
		return err
	}
	sb, err := inputOf("BinaryTransform second input", b, true)
	if err != nil {
		return err
	}
	// An input without a length (a Counting, a Constant) takes the other's.
	switch {
	case sa.len() < 0 && sb.len() < 0:
		return fmt.Errorf("gocccl: BinaryTransform: neither input has a length: give one with Take(n)")
	case sa.len() < 0:
		sa = sa.withLen(sb.len())
	case sb.len() < 0:
		sb = sb.withLen(sa.len())
	}
	dst, err := output("BinaryTransform output", out)
	if err != nil {
		return err
	}
	s, err = streamFor("BinaryTransform", s, sa.dev(), sb.dev(), dst.dev())
	if err != nil {
		return err
	}
	n := sa.len()
	if m := dst.len(); sb.len() != n || m >= 0 && m != n {
		return fmt.Errorf("gocccl: BinaryTransform: inputs have %d and %d elements, output %d", n, sb.len(), m)
	}
	if sa.it == nil && sb.it == nil && dst.it == nil {
		err = t.enter(s.dev)
	} else {
		err = t.enterThrough(s.dev, []*iter.Node{sa.node(), sb.node()}, []*iter.Node{dst.node()})
	}
	if err != nil {
		return t.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		ha, err := sa.host(s.dev)
		if err != nil {
			return t.wrap(err, "")
		}
		hb, err := sb.host(s.dev)
		if err != nil {
			return t.wrap(err, "")
		}
		o := dst.host(s.dev, n)
		x, y, z := ha.host, hb.host, o.host
		if _, err := parallel(n, s.dev.info.Workers, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				z[i] = t.op(x[i], y[i])
			}
		}); err != nil {
			return err
		}
		return t.wrap(dst.flush(o), "")
	}
	if n == 0 {
		return nil
	}
	var args cuda.Args
	// One call after another: a slice of method values would allocate per call.
	if err := sa.pack(&args); err != nil {
		return t.wrap(err, "")
	}
	if err := sb.pack(&args); err != nil {
		return t.wrap(err, "")
	}
	if err := dst.pack(&args); err != nil {
		return t.wrap(err, "")
	}
	args.Int64(int64(n))
	if sa.it == nil && sb.it == nil && dst.it == nil {
		return launchTransform(&t.instance, s, n, &args, nil, nil)
	}
	return launchTransform(&t.instance, s, n, &args, []*iter.Node{sa.node(), sb.node()}, []*iter.Node{dst.node()})
}

func launchTransform(in *instance, s *Stream, n int, args *cuda.Args, ins, outs []*iter.Node) error {
	k, err := in.kernelsThrough(s.dev, ins, outs)
	if err != nil {
		return err
	}
	tile := k.policy.Tile()
	return k.launch(transformKernel, (n+tile-1)/tile, s, args)
}

// transformKernel is the one kernel of UnaryTransform and BinaryTransform,
// by its suffix in the descriptions.
var transformKernel = kernelIndex("", algo.UnaryTransform, algo.BinaryTransform)
