package runtime

import (
	"errors"
	"fmt"
	"reflect"
	goruntime "runtime"
	"strings"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/arch"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/registry"
)

// Target is what a generated package's image was compiled for: SASS for one
// compute capability, or PTX that the driver compiles.
type Target = arch.Target

// ErrNotGenerated is returned when an algorithm instance runs but gocccl-gen
// generated no kernels for it: on a GPU, and on the CPU backend too, so that
// a program that works on the CPU works on a GPU. The error names the
// instance, where it was declared and what to run. A CPU device opened with
// GOCCCL_UNGENERATED=1 in the environment runs such instances' Go operators
// anyway (see DeviceInfo.Ungenerated).
var ErrNotGenerated = registry.ErrNotGenerated

// Modules returns the packages whose generated modules are registered in this
// program, sorted.
func Modules() []string { return registry.Packages() }

// instance is what every algorithm handle holds: the key its kernels are
// registered under, computed once when the instance is declared.
type instance struct {
	key registry.Key
	// label is key.String(), made once: every call names its instance.
	label string
	// callers are the return PCs of the constructor's call stack, from the
	// constructor outward: where the instance was declared, for messages.
	callers [4]uintptr
	// state is the per-call state of a handle that a Stateful instance's
	// Bind returned; its type is set on every instance declared with a
	// stateful constructor.
	state stateArg
}

// newInstance returns the instance of alg over the operators ops and the
// element types types (in the description's orders).
func newInstance(alg *algo.Algorithm, ops []any, types ...reflect.Type) instance {
	in := instance{key: registry.NewKey(alg, ops, types...)}
	in.label = in.key.String()
	goruntime.Callers(3, in.callers[:]) // above newInstance and the constructor
	return in
}

// declared returns where the instance was declared, "file:line", and the
// import path of the package that declared it: the first caller outside
// this package's non-test files. Both are "" when unknown.
func (in *instance) declared() (at, pkg string) {
	n := 0
	for n < len(in.callers) && in.callers[n] != 0 {
		n++
	}
	frames := goruntime.CallersFrames(in.callers[:n])
	for {
		f, more := frames.Next()
		if f.Function != "" && (funcPackage(f.Function) != runtimePkg || strings.HasSuffix(f.File, "_test.go")) {
			return fmt.Sprintf("%s:%d", f.File, f.Line), funcPackage(f.Function)
		}
		if !more {
			return "", ""
		}
	}
}

// runtimePkg is this package's import path.
const runtimePkg = "github.com/gocccl/gocccl/runtime"

// funcPackage returns the import path of the package of the function named
// name, as runtime.Frame spells it ("example.com/p.(*T).M" → "example.com/p").
func funcPackage(name string) string {
	slash := strings.LastIndexByte(name, '/')
	if dot := strings.IndexByte(name[slash+1:], '.'); dot >= 0 {
		return name[:slash+1+dot]
	}
	return name
}

// enter starts a call of the instance on d: it enters d (see Device.enter)
// and, on the CPU backend, requires the instance's kernels to be registered
// as a GPU does, unless d runs un-generated operators (GOCCCL_UNGENERATED).
// Every algorithm's Run (and TempStorageBytes) begins here, so both backends
// fail alike when go generate was not run. On success the caller must call
// d.exit.
func (in *instance) enter(d *Device) error {
	if err := d.enter(); err != nil {
		return in.wrap(err, "")
	}
	if d.ctx == nil && !d.info.Ungenerated {
		if _, err := in.lookup(); err != nil {
			d.exit()
			return err
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

// instanceError is an error that already names its instance; wrap leaves it
// as it is.
type instanceError struct {
	key registry.Key
	err error
}

func (e *instanceError) Error() string { return e.err.Error() }
func (e *instanceError) Unwrap() error { return e.err }

// lookup returns the instance's registration, or an error that names the
// instance, where it was declared and what to do.
func (in *instance) lookup() (*registry.Registration, error) {
	reg, err := registry.Lookup(in.key)
	switch {
	case errors.Is(err, registry.ErrNotGenerated):
		at, pkg := in.declared()
		where := ""
		if at != "" {
			where = fmt.Sprintf(", declared at %s in package %s,", at, pkg)
			pkg = "package " + pkg
		} else {
			pkg = "its package"
		}
		return nil, &instanceError{in.key, fmt.Errorf("gocccl: %s%s has %w: run go generate in %s (a file there needs a //go:generate gocccl-gen line, its operators //gocccl:op, and the declaration must be in a non-test file)",
			in.name(), where, registry.ErrNotGenerated, pkg)}
	case err != nil:
		return nil, &instanceError{in.key, fmt.Errorf("gocccl: %w", err)}
	}
	return reg, nil
}

// name names the instance in messages: "Reduce(sum.Add)".
func (in *instance) name() string {
	if in.label == "" { // an instance not made by newInstance
		return in.key.String()
	}
	return in.label
}

// errorf returns an error prefixed with the instance's name. It names the
// instance already, so wrap returns it as it is: a helper's errorf wrapped
// again by its caller reads "gocccl: X: …", never "gocccl: X: X: …".
func (in *instance) errorf(format string, args ...any) error {
	return &instanceError{in.key, fmt.Errorf("gocccl: %s: %s", in.name(), fmt.Sprintf(format, args...))}
}

// wrap prefixes err with the instance's name once; nil stays nil, and an
// error that names the instance already is returned as it is.
func (in *instance) wrap(err error, what string) error {
	if err == nil {
		return nil
	}
	if ie := (*instanceError)(nil); errors.As(err, &ie) && ie.key == in.key {
		return err
	}
	head := "gocccl: " + in.name() + ": "
	if what != "" {
		head += what + ": "
	}
	// err carries its own prefix (an operator's panic on the CPU backend, a
	// composition's index outside its buffer): keep one.
	return &instanceError{in.key, &prefixedError{head + strings.TrimPrefix(err.Error(), "gocccl: "), err}}
}

// prefixedError is an error under the message of wrap, which spells its
// message once with the gocccl: prefix.
type prefixedError struct {
	msg string
	err error
}

func (e *prefixedError) Error() string { return e.msg }
func (e *prefixedError) Unwrap() error { return e.err }

// kernels are an instance's registration bound on one device.
type kernels struct {
	in  *instance
	reg *registry.Registration
	*boundKernels
}

// kernels looks up the instance's registration and binds it on d (loading
// its module the first time). The caller has entered d.
func (in *instance) kernels(d *Device) (kernels, error) {
	reg, err := in.lookup()
	if err != nil {
		return kernels{}, err
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

// launch enqueues kernel i (its index in the description's Kernels, taken
// by kernelIndex) on s with a 1-D grid of the policy's block size.
func (k kernels) launch(i, grid int, s *Stream, args *cuda.Args) error {
	return k.launchBlock(i, grid, k.policy.BlockThreads, s, args)
}

// launchBlock enqueues kernel i with grid blocks of block threads.
func (k kernels) launchBlock(i, grid, block int, s *Stream, args *cuda.Args) error {
	if i < 0 || i >= len(k.fns) {
		// A kernel index the descriptions did not give (kernelIndex's -1):
		// TestKernelIndices fails on it in CI.
		return k.in.errorf("no kernel %d among the instance's %d (its description lacks a kernel the runtime launches)", i, len(k.fns))
	}
	if grid > 1<<31-1 {
		return k.in.errorf("%s needs %d blocks, more than 2^31-1", k.reg.Kernels[i], grid)
	}
	if k.in.state.typ != nil {
		n, err := k.in.appendState(args)
		if err != nil {
			return err
		}
		defer args.Truncate(n)
	}
	if decl := k.in.state.decl; decl != nil {
		s.dev.lastLaunch.Store(decl) // not the bound handle: it holds the state
	} else {
		s.dev.lastLaunch.Store(k.in)
	}
	fn := k.kernel(i)
	if fn.err != nil {
		return fn.err
	}
	if err := s.dev.launch(fn.fn, grid, block, s, args); err != nil {
		return k.in.wrap(s.dev.noteFault(err), fmt.Sprintf("launching %s on %d blocks", k.reg.Kernels[i], grid))
	}
	return nil
}
