package runtime

import (
	"fmt"
	"reflect"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/runtime/cuda"
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

// Run writes op(in[i]) to out[i] for every i; in and out have equal lengths.
// It is enqueued on s (nil means the default stream of in's device).
func (t *UnaryTransformOp[In, Out]) Run(s *Stream, in *Slice[In], out *Slice[Out]) error {
	if t == nil || t.op == nil {
		return fmt.Errorf("gocccl: UnaryTransform: nil operator")
	}
	if err := in.usable("UnaryTransform input"); err != nil {
		return err
	}
	if err := out.usable("UnaryTransform output"); err != nil {
		return err
	}
	s, err := streamFor("UnaryTransform", s, in.dev, out.dev)
	if err != nil {
		return err
	}
	if in.n != out.n {
		return fmt.Errorf("gocccl: UnaryTransform: input has %d elements, output %d", in.n, out.n)
	}
	if err := t.enter(s.dev); err != nil {
		return t.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		src, dst := in.host, out.host
		_, err := parallel(in.n, s.dev.info.Workers, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				dst[i] = t.op(src[i])
			}
		})
		return err
	}
	if in.n == 0 {
		return nil
	}
	var args cuda.Args
	args.Ptr(in.ptr)
	args.Ptr(out.ptr)
	args.Int64(int64(in.n))
	return launchTransform(&t.instance, s, in.n, &args)
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

// Run writes op(a[i], b[i]) to out[i] for every i; a, b and out have equal
// lengths. It is enqueued on s (nil means the default stream of a's device).
func (t *BinaryTransformOp[A, B, Out]) Run(s *Stream, a *Slice[A], b *Slice[B], out *Slice[Out]) error {
	if t == nil || t.op == nil {
		return fmt.Errorf("gocccl: BinaryTransform: nil operator")
	}
	if err := a.usable("BinaryTransform first input"); err != nil {
		return err
	}
	if err := b.usable("BinaryTransform second input"); err != nil {
		return err
	}
	if err := out.usable("BinaryTransform output"); err != nil {
		return err
	}
	s, err := streamFor("BinaryTransform", s, a.dev, b.dev, out.dev)
	if err != nil {
		return err
	}
	if a.n != b.n || a.n != out.n {
		return fmt.Errorf("gocccl: BinaryTransform: inputs have %d and %d elements, output %d", a.n, b.n, out.n)
	}
	if err := t.enter(s.dev); err != nil {
		return t.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		x, y, dst := a.host, b.host, out.host
		_, err := parallel(a.n, s.dev.info.Workers, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				dst[i] = t.op(x[i], y[i])
			}
		})
		return err
	}
	if a.n == 0 {
		return nil
	}
	var args cuda.Args
	args.Ptr(a.ptr)
	args.Ptr(b.ptr)
	args.Ptr(out.ptr)
	args.Int64(int64(a.n))
	return launchTransform(&t.instance, s, a.n, &args)
}

func launchTransform(in *instance, s *Stream, n int, args *cuda.Args) error {
	k, err := in.kernels(s.dev)
	if err != nil {
		return err
	}
	tile := k.policy.Tile()
	return k.launch(0, (n+tile-1)/tile, s, args)
}

// streamFor returns s, or the default stream of the first buffer's device
// when s is nil, after checking that every buffer (given in argument order)
// lives on the stream's device.
func streamFor(alg string, s *Stream, devs ...*Device) (*Stream, error) {
	if s == nil {
		s = devs[0].DefaultStream()
	}
	if err := s.usable(); err != nil {
		return nil, fmt.Errorf("gocccl: %s: %w", alg, err)
	}
	for i, d := range devs {
		if d != s.dev {
			return nil, fmt.Errorf("gocccl: %s: buffer %d (of %d) is on another device than the stream (%s; the stream is on %s): copy it to the stream's device, or run on a stream of its own device",
				alg, i+1, len(devs), d.shortName(), s.dev.shortName())
		}
	}
	return s, nil
}
