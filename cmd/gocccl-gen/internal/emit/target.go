package emit

import (
	"fmt"
	"strings"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
	"github.com/gocccl/gocccl/internal/arch"
)

// Target is what one nvcc run compiles for: SASS for one compute capability
// (sm_XY, a .cubin) or PTX for a virtual architecture (compute_XY, a .ptx).
type Target = arch.Target

// ParseTarget parses one target: "sm_80" or "compute_90".
func ParseTarget(s string) (Target, error) { return arch.ParseTarget(s) }

// ParseTargets parses a comma-separated target list such as
// "sm_80,sm_90,compute_90"; the result is sorted and free of duplicates.
func ParseTargets(s string) ([]Target, error) { return arch.ParseTargets(s) }

// normalizeTargets returns ts sorted and free of duplicates, in a new slice.
func normalizeTargets(ts []Target) []Target { return arch.Normalize(ts) }

// archs returns the distinct architectures of targets, ascending.
func archs(targets []Target) []int { return arch.Archs(targets) }

// selectTargets returns the targets to build pkg for, in this order of
// precedence: opts.Targets (the -arch flag), the package's //gocccl:arch
// directive (pkg.Targets), the targets recorded in the package's existing
// manifest old (so that a plain go generate keeps what an earlier -arch
// chose). It returns nil when none names any: then the toolchain's
// DefaultTargets apply.
func selectTargets(pkg *model.Package, opts Options, old *Manifest) ([]Target, error) {
	if len(opts.Targets) > 0 {
		return normalizeTargets(opts.Targets), nil
	}
	if len(pkg.Targets) > 0 {
		ts, err := ParseTargets(strings.Join(pkg.Targets, ","))
		if err != nil {
			return nil, fmt.Errorf("//gocccl:arch: %w", err)
		}
		return ts, nil
	}
	if old != nil {
		return normalizeTargets(old.Targets), nil
	}
	return nil, nil
}
