package registry

import (
	"errors"
	"fmt"
	"reflect"
	goruntime "runtime"
	"strings"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/arch"
	"github.com/gocccl/gocccl/internal/iter"
)

// ErrNotGenerated is returned when an algorithm instance runs but gocccl-gen
// generated no kernels for it.
var ErrNotGenerated = errors.New("no generated kernels")

// Limits of one instance: operators and element types.
const (
	MaxOps   = 3
	MaxTypes = 4
)

// Key identifies an instance: its algorithm, the entry PCs of its operators
// (top-level functions, so a PC names one) and its element types. It is
// comparable and built once, when the instance is declared.
type Key struct {
	Alg   *algo.Algorithm
	Ops   [MaxOps]uintptr
	Types [MaxTypes]reflect.Type
	// Iters is the signature of the iterator compositions the kernels read
	// and write through (iter.Key), "" for plain buffers.
	Iters string
}

// NewKey returns the key of alg over the operators ops (function values)
// and the element types types, in the description's orders.
func NewKey(alg *algo.Algorithm, ops []any, types ...reflect.Type) Key {
	k := Key{Alg: alg}
	for i, op := range ops {
		if i < MaxOps {
			k.Ops[i] = FuncPC(op)
		}
	}
	copy(k.Types[:], types)
	return k
}

// String names the instance as its declaration does: "Reduce(sum.Add)",
// or "RadixSortKeys[uint32]" for an algorithm without operators.
func (k Key) String() string {
	name := "?"
	if k.Alg != nil {
		name = k.Alg.Name
	}
	var ops []string
	for _, pc := range k.Ops {
		if pc != 0 {
			ops = append(ops, FuncName(pc))
		}
	}
	if len(ops) > 0 {
		return name + "(" + strings.Join(ops, ", ") + ")"
	}
	var ts []string
	for _, t := range k.Types {
		if t != nil {
			ts = append(ts, t.String())
		}
	}
	return name + "[" + strings.Join(ts, ", ") + "]"
}

// Instance is what generated glue registers for one instance.
type Instance struct {
	// Algorithm is the name of the algorithm's runtime constructor.
	Algorithm string
	// Ops are the instance's operators (functions), in the description's
	// order.
	Ops []any
	// Types are the element types, in the order of the description's
	// TypeParams.
	Types []reflect.Type
	// Layouts are the layouts of Types that the kernels were compiled for;
	// a Run fails when a Go type's differs.
	Layouts []string
	// Kernels are the entry points, in the description's Kernels order.
	Kernels []string
	// Part is the index of the part of every image (Image.Parts) that
	// holds Kernels; glue before version 6 has no parts and leaves it 0.
	Part int
	// Policies are the launch policies, one per architecture compiled.
	Policies []arch.Policy
	// Inputs are the compositions the kernels read their inputs through,
	// in the order of the description's Inputs (nil: a plain buffer);
	// Outputs those they write their outputs through. Both empty for an
	// instance over plain buffers.
	Inputs, Outputs []*iter.Node
	// State is the per-call state type of an instance declared with a
	// stateful constructor (runtime.ReduceWith), whose kernels take it by
	// value after their description's parameters; nil without state. Glue
	// version 3 and later.
	State reflect.Type
	// StateLayout is State's layout as the kernels were compiled for it.
	StateLayout string
}

// Registration is a registered instance, as algorithm handles use it.
type Registration struct {
	Module   *Module
	Alg      *algo.Algorithm
	Kernels  []string
	Part     int // the part of the module's images that holds Kernels
	Policies []arch.Policy
	// State is the per-call state type the kernels take as their last
	// parameter, or nil.
	State reflect.Type
	err   error // the instance does not match its description or its types changed
}

// Register records the kernels gocccl-gen compiled for one instance of
// module m. Problems (an unknown algorithm, counts that disagree with the
// description, element types whose layout changed since generation) are
// kept and reported when the instance runs, never as a panic at start-up.
func Register(m *Module, in Instance) {
	alg := algo.Lookup(in.Algorithm)
	reg := &Registration{Module: m, Alg: alg, Kernels: in.Kernels, Part: in.Part, Policies: in.Policies, State: in.State}
	switch {
	case m != nil && (in.Part < 0 || in.Part >= m.Parts()):
		reg.err = fmt.Errorf("the generated code places the kernels of %s in part %d of images that have %d; run go generate (gocccl-gen)", in.Algorithm, in.Part, m.Parts())
	case alg == nil:
		reg.err = fmt.Errorf("the generated code names algorithm %q, which this runtime does not have; update gocccl or run go generate (gocccl-gen)", in.Algorithm)
	case len(in.Ops) != len(alg.Ops) || len(in.Types) != len(alg.TypeParams) || len(in.Kernels) != len(alg.Kernels):
		reg.err = fmt.Errorf("the generated code registers %d operators, %d types and %d kernels for %s, which has %d, %d and %d; run go generate (gocccl-gen)",
			len(in.Ops), len(in.Types), len(in.Kernels), alg.Name, len(alg.Ops), len(alg.TypeParams), len(alg.Kernels))
	case len(in.Inputs) > len(alg.Inputs()) || len(in.Outputs) > len(alg.Outputs()):
		reg.err = fmt.Errorf("the generated code registers %d input and %d output iterators for %s, which reads %d and writes %d; run go generate (gocccl-gen)",
			len(in.Inputs), len(in.Outputs), alg.Name, len(alg.Inputs()), len(alg.Outputs()))
	default:
		reg.err = checkLayouts(in.Layouts, in.Types...)
		if reg.err == nil && in.State != nil && in.StateLayout != "" {
			if got := layoutOf(in.State); got != in.StateLayout {
				reg.err = &layoutError{msg: "state type " + in.State.String() + " has layout " + got + " in Go but the kernels were compiled for " + in.StateLayout}
			}
		}
	}
	key := NewKey(alg, in.Ops, in.Types...)
	if alg != nil && (len(in.Inputs) > 0 || len(in.Outputs) > 0) {
		ins := make([]*iter.Node, len(alg.Inputs()))
		outs := make([]*iter.Node, len(alg.Outputs()))
		copy(ins, in.Inputs)
		copy(outs, in.Outputs)
		key.Iters = IterKey(ins, outs)
	}
	state.mu.Lock()
	defer state.mu.Unlock()
	if state.instances == nil {
		state.instances = make(map[Key]*Registration)
	}
	state.instances[key] = reg
}

// Lookup returns the registration of key, or an error wrapping
// ErrNotGenerated that tells the user what to run.
func Lookup(key Key) (*Registration, error) {
	state.mu.RLock()
	r := state.instances[key]
	state.mu.RUnlock()
	if r == nil && key.Iters != "" {
		return nil, fmt.Errorf("%s through iterators %s: %w", key, key.Iters, ErrNotGenerated)
	}
	if r == nil {
		return nil, fmt.Errorf("%s: %w; mark its operators //gocccl:op, declare the instance outside _test.go files, and run go generate (gocccl-gen) in its package",
			key, ErrNotGenerated)
	}
	if r.err != nil {
		return nil, fmt.Errorf("%s: %w", key, r.err)
	}
	return r, nil
}

// IterKey is the Iters of a key: iter.Key of the compositions, or "" when
// every one is a plain buffer (nil or a Slice leaf).
func IterKey(ins, outs []*iter.Node) string {
	for _, ns := range [2][]*iter.Node{ins, outs} {
		for _, n := range ns {
			if !n.Plain() {
				return iter.Key(ins, outs)
			}
		}
	}
	return ""
}

// FuncPC returns the entry PC of a function value.
func FuncPC(f any) uintptr { return reflect.ValueOf(f).Pointer() }

// FuncName returns the qualified name of the function at pc.
func FuncName(pc uintptr) string {
	if fn := goruntime.FuncForPC(pc); fn != nil {
		return fn.Name()
	}
	return fmt.Sprintf("func@%#x", pc)
}
