// Package layers records the module's architecture as a table of layers:
// which packages form each layer and which layers each may import. Its
// test loads every package of the module and fails on an import that the
// table does not allow, so an import from a lower layer to a higher one
// fails in CI rather than in review.
//
// From the bottom up:
//
//   - element types users put in buffers and operators (half: Float16 and
//     BFloat16 in pure Go), importing nothing of the module;
//   - the driver binding (internal/cuda) and the contract shared by the
//     generator and the runtime (internal/algo, arch, iter, registry,
//     ptxisa; the kernel headers in kernels; the operator hash of
//     runtime/goccclimpl/opshash);
//   - the runtime users and generated code import (runtime,
//     runtime/goccclimpl, iterator);
//   - the generator, private to its command (cmd/gocccl-gen/internal/...:
//     the model, the analyzer that builds it, the emitter that writes from
//     it) and the command itself;
//   - test material (conformance/...: the GPU conformance, differential
//     and operator-fuzz suites), and the programs built on the public API
//     (examples/..., bench/...).
package layers

// A layer is a set of packages of the module, named by their paths
// relative to the module's root (a trailing "/..." takes the folder and
// every package below it), and the layers they may import besides their
// own.
type layer struct {
	name     string
	packages []string
	imports  []string
	// tests lists the layers that the package's tests may import besides
	// those its code may.
	tests []string
}

// module is the path of this module.
const module = "github.com/gocccl/gocccl"

// table lists the layers from the bottom up. A package belongs to the
// layer with the longest matching pattern.
var table = []layer{
	{
		name:     "elements",
		packages: []string{"half"},
	},
	{
		name:     "driver",
		packages: []string{"internal/cuda", "internal/nccl"},
	},
	{
		name: "contract",
		packages: []string{
			"internal/algo", "internal/arch", "internal/iter", "internal/ptxisa",
			"internal/registry", "kernels", "runtime/goccclimpl/opshash",
		},
	},
	{
		name:     "layering",
		packages: []string{"internal/layers"},
	},
	{
		name:     "runtime",
		packages: []string{"runtime", "runtime/goccclimpl", "runtime/group", "runtime/dlpack", "iterator"},
		imports:  []string{"elements", "driver", "contract"},
	},
	{
		name:     "model",
		packages: []string{"cmd/gocccl-gen/internal/model", "cmd/gocccl-gen/internal/intrinsics"},
		imports:  []string{"elements", "contract"},
	},
	{
		name:     "analyzer",
		packages: []string{"cmd/gocccl-gen/internal/analyzer"},
		imports:  []string{"elements", "contract", "model"},
		tests:    []string{"emitter"},
	},
	{
		name:     "emitter",
		packages: []string{"cmd/gocccl-gen/internal/emit/..."},
		imports:  []string{"elements", "contract", "model"},
		tests:    []string{"analyzer", "conformance"},
	},
	{
		name:     "command",
		packages: []string{"cmd/gocccl-gen/..."},
		imports:  []string{"elements", "driver", "contract", "runtime", "model", "analyzer", "emitter"},
	},
	{
		name:     "conformance",
		packages: []string{"conformance/..."},
		imports:  []string{"elements", "driver", "contract", "runtime"},
	},
	{
		name:     "applications",
		packages: []string{"examples/...", "bench/..."},
		imports:  []string{"elements", "driver", "contract", "runtime"},
	},
}
