package runtime

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unsafe"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/iter"
	"github.com/gocccl/gocccl/internal/registry"
)

// Input is what an algorithm reads: a *Slice[T], or an iterator composition
// of package iterator bound for the call (iterator.In.Bind). Only gocccl's
// own types implement it.
type Input[T any] interface {
	// GoccclInput is for gocccl's own use.
	GoccclInput() iter.Input[T]
}

// Output is what an algorithm writes: a *Slice[T], or an output iterator
// composition of package iterator bound for the call. Only gocccl's own
// types implement it.
type Output[T any] interface {
	// GoccclOutput is for gocccl's own use.
	GoccclOutput() iter.Output[T]
}

// Iterator is a declared iterator composition that reads values of T
// (package iterator): an instance's Over declares the compositions its
// inputs are read through, so that gocccl-gen compiles them.
type Iterator[T any] interface {
	// GoccclIterator is for gocccl's own use.
	GoccclIterator() iter.Decl[T]
}

// OutputIterator is a declared output iterator composition that accepts
// values of T (package iterator); an instance's Into declares it.
type OutputIterator[T any] interface {
	// GoccclOutputIterator is for gocccl's own use.
	GoccclOutputIterator() iter.OutDecl[T]
}

// GoccclInput is for gocccl's own use: a Slice is an Input read as is.
func (s *Slice[T]) GoccclInput() iter.Input[T] { return iter.Input[T]{Slice: s} }

// GoccclOutput is for gocccl's own use: a Slice is an Output written as is.
func (s *Slice[T]) GoccclOutput() iter.Output[T] { return iter.Output[T]{Slice: s} }

// boundIter is a bound composition resolved for one call: its Slice
// leaves' values are buffers on dev.
type boundIter struct {
	root *iter.Node
	env  iter.Env
	n    int // its length, -1 when it has none (an output such as Discard)
	dev  *Device
}

// iterBuffer is what a Slice leaf's value is: a *Slice of some type.
type iterBuffer interface {
	iterBuf(what string) (iter.Buf, *Device, error)
	elemType() reflect.Type
}

func (s *Slice[T]) iterBuf(what string) (iter.Buf, *Device, error) {
	if err := s.usable(what); err != nil {
		return iter.Buf{}, nil, err
	}
	b := iter.Buf{Ptr: uintptr(s.ptr), N: int64(s.n)}
	if s.host != nil || s.ptr == 0 {
		b.Host = s.host
	}
	return b, s.dev, nil
}

func (s *Slice[T]) elemType() reflect.Type { return reflect.TypeFor[T]() }

// resolve checks a binding and resolves its buffers: every leaf has one
// value of its type, every buffer is usable and all are on one device.
func resolve(what string, b *iter.Binding, output, unbounded bool) (*boundIter, error) {
	if b == nil || b.Root == nil {
		return nil, fmt.Errorf("gocccl: %s: nil iterator", what)
	}
	root := b.Root
	if err := root.Check(); err != nil {
		return nil, fmt.Errorf("gocccl: %s: %w", what, err)
	}
	if root.Kind.Output() && !output {
		return nil, fmt.Errorf("gocccl: %s: %s is an output iterator", what, root.Sig())
	}
	leaves := root.Leaves(nil)
	bi := &boundIter{root: root, env: iter.Env{Vals: make([]iter.Value, 0, len(b.Vals))}}
	for _, v := range b.Vals {
		if !slices.Contains(leaves, v.Leaf) {
			if v.Leaf == nil {
				return nil, fmt.Errorf("gocccl: %s: a zero iterator.Value", what)
			}
			return nil, fmt.Errorf("gocccl: %s: a value for a %s[%v] leaf that is not in %s", what, v.Leaf.Kind, v.Leaf.Type, root.Sig())
		}
		for _, w := range bi.env.Vals {
			if w.Leaf == v.Leaf {
				return nil, fmt.Errorf("gocccl: %s: two values for one %s[%v] leaf", what, v.Leaf.Kind, v.Leaf.Type)
			}
		}
		if v.Leaf.Kind == iter.Slice {
			buf, ok := v.V.(iterBuffer)
			if !ok || buf.elemType() != v.Leaf.Type {
				return nil, fmt.Errorf("gocccl: %s: the value of a Slice[%v] leaf is %T", what, v.Leaf.Type, v.V)
			}
			rb, dev, err := buf.iterBuf(what)
			if err != nil {
				return nil, err
			}
			if bi.dev != nil && dev != bi.dev {
				return nil, fmt.Errorf("gocccl: %s: its buffers are on %v and %v", what, bi.dev, dev)
			}
			bi.dev = dev
			v.V = rb
		}
		bi.env.Vals = append(bi.env.Vals, v)
	}
	for _, l := range leaves {
		if _, err := bi.env.Value(l); err != nil {
			return nil, fmt.Errorf("gocccl: %s: %s: %w", what, root.Sig(), err)
		}
	}
	n, err := root.Len(&bi.env)
	if err != nil {
		return nil, fmt.Errorf("gocccl: %s: %w", what, err)
	}
	switch {
	case b.Take == -2:
		return nil, fmt.Errorf("gocccl: %s: negative Take", what)
	case b.Take >= 0 && n >= 0 && b.Take > n:
		return nil, fmt.Errorf("gocccl: %s: Take(%d) of an iterator of %d elements", what, b.Take, n)
	case b.Take >= 0:
		n = b.Take
	case n < 0 && !output && !unbounded:
		return nil, fmt.Errorf("gocccl: %s: %s has no length: it reads no Slice or Shuffle; give it one with Take(n)", what, root.Sig())
	}
	if n > maxAllocBytes {
		return nil, fmt.Errorf("gocccl: %s: %d elements", what, n)
	}
	bi.n = int(n)
	return bi, nil
}

// src is one input of a call: a plain buffer, or a bound composition.
type src[T any] struct {
	s  *Slice[T]
	it *boundIter
}

// input resolves an algorithm's input; what names it in messages.
func input[T any](what string, in Input[T]) (src[T], error) { return inputOf(what, in, false) }

// inputOf is input; with unbounded, a composition without a length has
// length -1, and the caller gives it another input's.
func inputOf[T any](what string, in Input[T], unbounded bool) (src[T], error) {
	if in == nil {
		return src[T]{}, fmt.Errorf("gocccl: %s: nil slice", what)
	}
	if s, ok := in.(*Slice[T]); ok {
		return src[T]{s: s}, s.usable(what)
	}
	x := in.GoccclInput()
	if s, ok := x.Slice.(*Slice[T]); ok {
		return src[T]{s: s}, s.usable(what)
	}
	if x.B != nil && x.B.Root != nil && x.B.Root.Kind == iter.Slice && x.B.Take < 0 {
		// A Slice leaf alone is its buffer.
		for _, v := range x.B.Vals {
			if s, ok := v.V.(*Slice[T]); ok && v.Leaf == x.B.Root && len(x.B.Vals) == 1 {
				return src[T]{s: s}, s.usable(what)
			}
		}
	}
	it, err := resolve(what, x.B, false, unbounded)
	if err != nil {
		return src[T]{}, err
	}
	return src[T]{it: it}, nil
}

// withLen gives an input without a length (-1) the length n.
func (a src[T]) withLen(n int) src[T] {
	if a.it != nil && a.it.n < 0 {
		c := *a.it
		c.n = n
		a.it = &c
	}
	return a
}

func (a src[T]) len() int {
	if a.it != nil {
		return a.it.n
	}
	return a.s.n
}

// dev is the device of the input's buffers: nil for a composition that
// reads none.
func (a src[T]) dev() *Device {
	if a.it != nil {
		return a.it.dev
	}
	return a.s.dev
}

func (a src[T]) node() *iter.Node {
	if a.it != nil {
		return a.it.root
	}
	return nil
}

// pack adds the kernel argument: the pointer, or the iterator struct.
func (a src[T]) pack(args *cuda.Args) error {
	if a.it == nil {
		args.Ptr(a.s.ptr)
		return nil
	}
	return a.it.pack(args)
}

func (b *boundIter) pack(args *cuda.Args) error {
	blob, err := iter.Pack(b.root, &b.env)
	if err != nil {
		return err
	}
	args.Value(unsafe.Pointer(&blob.B[0]), len(blob.B), blob.Align)
	return nil
}

// host returns the input's elements on the CPU backend as a Slice: the
// buffer itself, or the composition evaluated with the Go operators.
func (a src[T]) host(d *Device) (*Slice[T], error) {
	if a.it == nil {
		return a.s, nil
	}
	read, ok := a.it.root.Read.(iter.Reader[T])
	if !ok {
		return nil, fmt.Errorf("gocccl: %s cannot be evaluated on the CPU backend", a.it.root.Sig())
	}
	vals := make([]T, a.it.n)
	f, err := read(&a.it.env)
	if err != nil {
		return nil, err
	}
	if _, err := parallel(len(vals), d.info.Workers, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			vals[i] = f(int64(i))
		}
	}); err != nil {
		return nil, err
	}
	return &Slice[T]{dev: d, n: len(vals), host: vals}, nil
}

// sink is one output of a call: a plain buffer, or a bound composition.
type sink[T any] struct {
	s  *Slice[T]
	it *boundIter
}

// output resolves an algorithm's output.
func output[T any](what string, out Output[T]) (sink[T], error) {
	if out == nil {
		return sink[T]{}, fmt.Errorf("gocccl: %s: nil slice", what)
	}
	if s, ok := out.(*Slice[T]); ok {
		return sink[T]{s: s}, s.usable(what)
	}
	x := out.GoccclOutput()
	if s, ok := x.Slice.(*Slice[T]); ok {
		return sink[T]{s: s}, s.usable(what)
	}
	if x.B != nil && x.B.Root != nil && x.B.Root.Kind == iter.Slice && len(x.B.Vals) == 1 {
		if s, ok := x.B.Vals[0].V.(*Slice[T]); ok && x.B.Vals[0].Leaf == x.B.Root {
			return sink[T]{s: s}, s.usable(what)
		}
	}
	it, err := resolve(what, x.B, true, false)
	if err != nil {
		return sink[T]{}, err
	}
	return sink[T]{it: it}, nil
}

// len is the output's length, -1 when it takes the algorithm's (Discard).
func (a sink[T]) len() int {
	if a.it != nil {
		return a.it.n
	}
	return a.s.n
}

func (a sink[T]) dev() *Device {
	if a.it != nil {
		return a.it.dev
	}
	return a.s.dev
}

func (a sink[T]) node() *iter.Node {
	if a.it != nil {
		return a.it.root
	}
	return nil
}

func (a sink[T]) pack(args *cuda.Args) error {
	if a.it == nil {
		args.Ptr(a.s.ptr)
		return nil
	}
	return a.it.pack(args)
}

// host returns where the CPU backend writes the output: the buffer itself,
// or a temporary of n elements that flush writes through the composition.
func (a sink[T]) host(d *Device, n int) *Slice[T] {
	if a.it == nil {
		return a.s
	}
	return &Slice[T]{dev: d, n: n, host: make([]T, n)}
}

// flush writes a temporary from host through the output composition, in
// index order.
func (a sink[T]) flush(tmp *Slice[T]) (err error) {
	if a.it == nil {
		return nil
	}
	write, ok := a.it.root.Write.(iter.Writer[T])
	if !ok {
		return fmt.Errorf("gocccl: %s cannot be evaluated on the CPU backend", a.it.root.Sig())
	}
	f, err := write(&a.it.env)
	if err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("gocccl: operator panicked on the CPU backend: %v", r)
		}
	}()
	for i, v := range tmp.host {
		f(int64(i), v)
	}
	return nil
}

// iterKey is the registry's key of a call's compositions: the signature of
// each input and output in the description's order ("-" for a plain
// buffer), or "" when all are plain.
func iterKey(ins []*iter.Node, outs []*iter.Node) string {
	plain := true
	for _, n := range append(slices.Clone(ins), outs...) {
		if n != nil {
			plain = false
		}
	}
	if plain {
		return ""
	}
	return iter.Key(ins, outs)
}

// kernelsThrough looks up the kernels of the instance that read its inputs
// through ins and write its outputs through outs (nil: plain buffers), and
// binds them on d. Kernels no declaration asked for are an error that spells
// the declaration to add.
func (in *instance) kernelsThrough(d *Device, ins, outs []*iter.Node) (kernels, error) {
	key := in.key
	key.Iters = registry.IterKey(ins, outs)
	if key.Iters == "" {
		return in.kernels(d)
	}
	reg, err := registry.Lookup(key)
	if err != nil {
		return kernels{}, in.undeclared(err, ins, outs)
	}
	if reg.State != in.state.typ {
		return kernels{}, in.stateMismatch(reg.State)
	}
	bk, err := d.bind(reg)
	if err != nil {
		return kernels{}, err
	}
	return kernels{in: in, reg: reg, boundKernels: bk}, nil
}

// undeclared is the error of a composition no generated registration has:
// it names the instance once (wrap leaves it as it is) and the declaration
// to add.
func (in *instance) undeclared(err error, ins, outs []*iter.Node) error {
	return &instanceError{in.key, fmt.Errorf("gocccl: %w; declare the instance with them where it is declared, %s, and run go generate (gocccl-gen) in its package",
		err, declaration(in.key, in.state.typ, ins, outs))}
}

// declaration spells an instance declared with iterators; one with a
// state type (not nil) by its stateful constructor (runtime.ReduceWith).
func declaration(key registry.Key, state reflect.Type, ins, outs []*iter.Node) string {
	s := "runtime." + constructor(key)
	if state != nil && key.Alg != nil {
		rest := strings.TrimPrefix(s, "runtime."+key.Alg.Name)
		if key.Alg.Typed() {
			rest = "[" + state.String() + ", " + strings.TrimPrefix(rest, "[")
		}
		s = "runtime." + key.Alg.Name + algo.StatefulSuffix + rest
	}
	list := func(ns []*iter.Node, types func(i int) string) string {
		parts := make([]string, len(ns))
		for i, n := range ns {
			if n.Plain() {
				parts[i] = "iterator.Slice[" + types(i) + "]()"
			} else {
				parts[i] = iter.GoExpr(n)
			}
		}
		return strings.Join(parts, ", ")
	}
	typeOf := func(kind algo.ParamKind, names []string) func(int) string {
		return func(i int) string {
			for _, k := range key.Alg.Kernels {
				for _, p := range k.Params {
					if p.Kind == kind && p.Name == names[i] {
						if j := key.Alg.TypeIndex(p.Type); j >= 0 && key.Types[j] != nil {
							return key.Types[j].String()
						}
						return p.Type
					}
				}
			}
			return "?"
		}
	}
	if registry.IterKey(ins, nil) != "" {
		s += ".Over(" + list(ins, typeOf(algo.In, key.Alg.Inputs())) + ")"
	}
	if registry.IterKey(nil, outs) != "" {
		// Into takes no composition for counts: spell the others.
		all, names := key.Alg.Outputs(), key.Alg.IntoOutputs()
		into := make([]*iter.Node, len(names))
		for i, name := range names {
			if j := slices.Index(all, name); j < len(outs) {
				into[i] = outs[j]
			}
		}
		s += ".Into(" + list(into, typeOf(algo.Out, names)) + ")"
	}
	return s
}

// constructor spells the constructor call of an instance: that of an
// algorithm whose operators do not name all its types with its type
// arguments (runtime.MergeSortPairs[int32, int64](Less)), as a declaration
// must write them; that of an algorithm without operators is its type
// arguments and no arguments (runtime.HistogramEven[float32]()).
func constructor(key registry.Key) string {
	s := key.String()
	i := strings.IndexByte(s, '(')
	if key.Alg != nil && len(key.Alg.Ops) == 0 && i < 0 {
		return s + "()"
	}
	if key.Alg == nil || !key.Alg.Typed() || i < 0 {
		return s
	}
	ts := make([]string, len(key.Alg.TypeParams))
	for j := range ts {
		ts[j] = "?"
		if j < len(key.Types) && key.Types[j] != nil {
			ts[j] = key.Types[j].String()
		}
	}
	return s[:i] + "[" + strings.Join(ts, ", ") + "]" + s[i:]
}

// enterThrough is enter for a call through iterator compositions: on the
// CPU backend it requires the kernels of those compositions to be
// registered, as a GPU does, so that both backends refuse a composition no
// instance declared.
func (in *instance) enterThrough(d *Device, ins, outs []*iter.Node) error {
	if registry.IterKey(ins, outs) == "" {
		return in.enter(d)
	}
	if err := d.enter(); err != nil {
		return in.wrap(err, "")
	}
	if d.ctx == nil && !d.info.Ungenerated {
		key := in.key
		key.Iters = registry.IterKey(ins, outs)
		if _, err := registry.Lookup(key); err != nil {
			d.exit()
			return in.undeclared(err, ins, outs)
		}
	}
	if len(in.state.views) > 0 {
		if err := in.checkViews(d); err != nil {
			d.exit()
			return err
		}
	}
	return nil
}
