package runtime

import (
	"errors"
	"fmt"
	"reflect"
	goruntime "runtime"
)

// Policy is the launch configuration a kernel was compiled with for one
// target architecture.
type Policy struct {
	Arch           int // compute capability × 10
	BlockThreads   int
	ItemsPerThread int
}

// Tile returns the number of items one block processes per tile.
func (p Policy) Tile() int { return p.BlockThreads * p.ItemsPerThread }

// ReduceKernels names the entry points of a Reduce instance.
type ReduceKernels struct {
	Partial  string // per-block partial reductions
	Final    string // single-block reduction with the init value
	Policies []Policy
	// Layouts are the layouts (model.Type.Layout) of the element type the
	// kernels were compiled for; Run fails when the Go type's differs.
	Layouts []string
}

// TransformKernels names the entry point of a transform instance.
type TransformKernels struct {
	Entry    string
	Policies []Policy
	// Layouts are the layouts of the input and output element types the
	// kernel was compiled for, in order; Run fails when a Go type's differs.
	Layouts []string
}

// ErrNotGenerated is returned when an algorithm runs on a GPU but gocccl-gen
// generated no kernels for it.
var ErrNotGenerated = errors.New("no generated kernels")

type algorithm int

const (
	algReduce algorithm = iota + 1
	algUnaryTransform
	algBinaryTransform
)

func (a algorithm) String() string {
	switch a {
	case algReduce:
		return "Reduce"
	case algUnaryTransform:
		return "UnaryTransform"
	case algBinaryTransform:
		return "BinaryTransform"
	}
	return "?"
}

// kernelKey identifies an instance: an algorithm and the entry PCs of its
// operators. Operators are top-level functions, so a PC names one.
type kernelKey struct {
	alg algorithm
	op  uintptr
}

// registration is what generated code recorded for one instance.
type registration struct {
	module   *Module
	entries  []string // Reduce: partial, final; transforms: entry
	policies []Policy
	err      error // the element types changed since generation
}

// RegisterReduce records the kernels gocccl-gen compiled for Reduce(op).
// It is called by generated code.
func RegisterReduce[T any](m *Module, op func(T, T) T, k ReduceKernels) {
	err := checkLayouts(k.Layouts, reflect.TypeFor[T]())
	register(kernelKey{algReduce, funcPC(op)}, m, []string{k.Partial, k.Final}, k.Policies, err)
}

// RegisterUnaryTransform records the kernel gocccl-gen compiled for
// UnaryTransform(op). It is called by generated code.
func RegisterUnaryTransform[In, Out any](m *Module, op func(In) Out, k TransformKernels) {
	err := checkLayouts(k.Layouts, reflect.TypeFor[In](), reflect.TypeFor[Out]())
	register(kernelKey{algUnaryTransform, funcPC(op)}, m, []string{k.Entry}, k.Policies, err)
}

// RegisterBinaryTransform records the kernel gocccl-gen compiled for
// BinaryTransform(op). It is called by generated code.
func RegisterBinaryTransform[A, B, Out any](m *Module, op func(A, B) Out, k TransformKernels) {
	err := checkLayouts(k.Layouts, reflect.TypeFor[A](), reflect.TypeFor[B](), reflect.TypeFor[Out]())
	register(kernelKey{algBinaryTransform, funcPC(op)}, m, []string{k.Entry}, k.Policies, err)
}

func register(key kernelKey, m *Module, entries []string, policies []Policy, err error) {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if registry.kernels == nil {
		registry.kernels = make(map[kernelKey]*registration)
	}
	registry.kernels[key] = &registration{module: m, entries: entries, policies: policies, err: err}
}

// lookup returns the registration for key, or an error that tells the user
// to run go generate.
func lookup(key kernelKey) (*registration, error) {
	registry.mu.RLock()
	r := registry.kernels[key]
	registry.mu.RUnlock()
	if r == nil {
		return nil, fmt.Errorf("gocccl: %s(%s): %w; mark the operator //gocccl:op, declare the instance outside _test.go files, and run go generate (gocccl-gen) in its package",
			key.alg, funcName(key.op), ErrNotGenerated)
	}
	if r.err != nil {
		return nil, fmt.Errorf("gocccl: %s(%s): %w", key.alg, funcName(key.op), r.err)
	}
	return r, nil
}

func funcPC(f any) uintptr { return reflect.ValueOf(f).Pointer() }

func funcName(pc uintptr) string {
	if fn := goruntime.FuncForPC(pc); fn != nil {
		return fn.Name()
	}
	return fmt.Sprintf("func@%#x", pc)
}
