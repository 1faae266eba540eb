package runtime

import (
	"fmt"
	"reflect"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/arch"
	"github.com/gocccl/gocccl/internal/registry"
	"github.com/gocccl/gocccl/runtime/cuda"
)

// Target is what a generated package's image was compiled for: SASS for one
// compute capability, or PTX that the driver compiles.
type Target = arch.Target

// ErrNotGenerated is returned when an algorithm instance runs on a GPU but
// gocccl-gen generated no kernels for it.
var ErrNotGenerated = registry.ErrNotGenerated

// Modules returns the packages whose generated modules are registered in this
// program, sorted.
func Modules() []string { return registry.Packages() }

// instance is what every algorithm handle holds: the key its kernels are
// registered under, computed once when the instance is declared.
type instance struct {
	key registry.Key
	// state is the per-call state of a handle that a Stateful instance's
	// Bind returned; its type is set on every instance declared with a
	// stateful constructor.
	state stateArg
}

// newInstance returns the instance of alg over the operators ops and the
// element types types (in the description's orders).
func newInstance(alg *algo.Algorithm, ops []any, types ...reflect.Type) instance {
	return instance{key: registry.NewKey(alg, ops, types...)}
}

// name names the instance in messages: "Reduce(sum.Add)".
func (in *instance) name() string { return in.key.String() }

// errorf returns an error prefixed with the instance's name.
func (in *instance) errorf(format string, args ...any) error {
	return fmt.Errorf("gocccl: %s: %s", in.name(), fmt.Sprintf(format, args...))
}

// wrap prefixes err with the instance's name once; nil stays nil.
func (in *instance) wrap(err error, what string) error {
	if err == nil {
		return nil
	}
	if what != "" {
		return fmt.Errorf("gocccl: %s: %s: %w", in.name(), what, err)
	}
	return fmt.Errorf("gocccl: %s: %w", in.name(), err)
}

// kernels are an instance's registration bound on one device.
type kernels struct {
	in  *instance
	reg *registry.Registration
	*boundKernels
}

// kernels looks up the instance's registration and binds it on d (loading
// its module the first time). The caller has entered d.
func (in *instance) kernels(d *Device) (kernels, error) {
	reg, err := registry.Lookup(in.key)
	if err != nil {
		return kernels{}, fmt.Errorf("gocccl: %w", err)
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

// launch enqueues kernel i (in the description's Kernels order) on s with a
// 1-D grid of the policy's block size.
func (k kernels) launch(i, grid int, s *Stream, args *cuda.Args) error {
	return k.launchBlock(i, grid, k.policy.BlockThreads, s, args)
}

// launchBlock enqueues kernel i with grid blocks of block threads.
func (k kernels) launchBlock(i, grid, block int, s *Stream, args *cuda.Args) error {
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
	if err := s.dev.launch(k.fns[i], grid, block, s, args); err != nil {
		return k.in.wrap(err, fmt.Sprintf("launching %s on %d blocks", k.reg.Kernels[i], grid))
	}
	return nil
}
