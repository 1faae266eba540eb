package emit

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/gocccl/gocccl/model"
)

// Target is what one nvcc run compiles for: SASS for one compute capability
// (sm_XY, a .cubin) or PTX for a virtual architecture (compute_XY, a .ptx)
// that the driver compiles for newer GPUs.
type Target struct {
	Arch int  // compute capability × 10, e.g. 90 for 9.0
	PTX  bool // PTX rather than SASS
}

// String returns nvcc's name for the target: "sm_90" or "compute_90".
func (t Target) String() string {
	if t.PTX {
		return fmt.Sprintf("compute_%d", t.Arch)
	}
	return fmt.Sprintf("sm_%d", t.Arch)
}

// FileName returns the name of the target's artifact in the package
// directory: "gocccl_gen_sm_90.cubin" or "gocccl_gen_compute_90.ptx".
func (t Target) FileName() string {
	if t.PTX {
		return "gocccl_gen_" + t.String() + ".ptx"
	}
	return "gocccl_gen_" + t.String() + ".cubin"
}

// MarshalText encodes the target as its String, so manifests read "sm_90".
func (t Target) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText decodes a target written by MarshalText.
func (t *Target) UnmarshalText(b []byte) error {
	v, err := ParseTarget(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// less orders targets by architecture, SASS before PTX.
func (t Target) less(u Target) bool {
	if t.Arch != u.Arch {
		return t.Arch < u.Arch
	}
	return !t.PTX && u.PTX
}

// ParseTarget parses one target: "sm_80" or "compute_90".
func ParseTarget(s string) (Target, error) {
	s = strings.TrimSpace(s)
	var t Target
	var num string
	switch {
	case strings.HasPrefix(s, "sm_"):
		num = s[len("sm_"):]
	case strings.HasPrefix(s, "compute_"):
		num, t.PTX = s[len("compute_"):], true
	default:
		return Target{}, fmt.Errorf("target %q: want sm_XY or compute_XY", s)
	}
	arch, err := strconv.Atoi(num)
	if err != nil || arch < 10 || arch > 999 || num != strconv.Itoa(arch) {
		return Target{}, fmt.Errorf("target %q: want sm_XY or compute_XY with a compute capability such as 90", s)
	}
	t.Arch = arch
	return t, nil
}

// ParseTargets parses a comma-separated target list such as
// "sm_80,sm_90,compute_90", optionally preceded by "-arch" or "-arch=" as on
// nvcc's command line. The result is sorted and free of duplicates.
func ParseTargets(s string) ([]Target, error) {
	s = strings.TrimSpace(s)
	for _, p := range []string{"--arch=", "-arch=", "--arch ", "-arch "} {
		if strings.HasPrefix(s, p) {
			s = s[len(p):]
			break
		}
	}
	var ts []Target
	for _, f := range strings.Split(s, ",") {
		if strings.TrimSpace(f) == "" {
			continue
		}
		t, err := ParseTarget(f)
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("no targets in %q", s)
	}
	return normalizeTargets(ts), nil
}

// normalizeTargets returns ts sorted (by arch, SASS before PTX) and free of
// duplicates, in a new slice.
func normalizeTargets(ts []Target) []Target {
	out := append([]Target(nil), ts...)
	sort.Slice(out, func(i, j int) bool { return out[i].less(out[j]) })
	n := 0
	for i, t := range out {
		if i == 0 || t != out[n-1] {
			out[n] = t
			n++
		}
	}
	return out[:n]
}

// archs returns the distinct architectures of targets, ascending.
func archs(targets []Target) []int {
	var as []int
	for _, t := range normalizeTargets(targets) {
		if len(as) == 0 || as[len(as)-1] != t.Arch {
			as = append(as, t.Arch)
		}
	}
	return as
}

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
