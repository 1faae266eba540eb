// Package arch holds the per-architecture facts that the generator, the
// generated glue and the runtime share: what an image is compiled for
// (Target) and how its kernels are launched there (Policy).
package arch

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
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

// FileName returns the name of the target's artifact in a generated
// package's directory: "gocccl_gen_sm_90.cubin" or "gocccl_gen_compute_90.ptx".
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

// Compare orders targets by architecture, SASS before PTX.
func (t Target) Compare(u Target) int {
	if t.Arch != u.Arch {
		return t.Arch - u.Arch
	}
	switch {
	case t.PTX == u.PTX:
		return 0
	case u.PTX:
		return -1
	}
	return 1
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
	a, err := strconv.Atoi(num)
	if err != nil || a < 10 || a > 999 || num != strconv.Itoa(a) {
		return Target{}, fmt.Errorf("target %q: want sm_XY or compute_XY with a compute capability such as 90", s)
	}
	t.Arch = a
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
	return Normalize(ts), nil
}

// Normalize returns ts sorted (by arch, SASS before PTX) and free of
// duplicates, in a new slice.
func Normalize(ts []Target) []Target {
	out := slices.Clone(ts)
	slices.SortFunc(out, Target.Compare)
	return slices.Compact(out)
}

// Archs returns the distinct architectures of targets, ascending.
func Archs(targets []Target) []int {
	var as []int
	for _, t := range Normalize(targets) {
		if len(as) == 0 || as[len(as)-1] != t.Arch {
			as = append(as, t.Arch)
		}
	}
	return as
}
