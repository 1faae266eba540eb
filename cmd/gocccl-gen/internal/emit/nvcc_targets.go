package emit

import (
	"fmt"
	"strconv"
	"strings"
)

// archRelease says which nvcc releases compile for one compute capability:
// from first to last, inclusive; last is "" while current releases do.
type archRelease struct {
	arch        int
	first, last string
}

// archReleases is what each nvcc release compiles for (SASS and PTX alike),
// from NVIDIA's release notes. Releases before 10.0 are not tracked: first is
// "" for what they already had.
var archReleases = []archRelease{
	{35, "", "11.8"}, {37, "", "11.8"},
	{50, "", "12.9"}, {52, "", "12.9"}, {53, "", "12.9"},
	{60, "", "12.9"}, {61, "", "12.9"}, {62, "", "12.9"},
	{70, "", "12.9"}, {72, "", "12.9"},
	{75, "10.0", ""}, {80, "11.0", ""}, {86, "11.1", ""}, {87, "11.4", ""},
	{88, "13.0", ""}, {89, "11.8", ""}, {90, "11.8", ""},
	{100, "12.8", ""}, {101, "12.8", "12.9"}, // sm_101 is sm_110 from 13.0 on
	{103, "12.9", ""}, {110, "13.0", ""}, {120, "12.8", ""}, {121, "12.9", ""},
}

// releaseNumber orders nvcc releases: "12.8" is 1208; "" is 0.
func releaseNumber(v string) int {
	major, minor := splitVersion(v)
	return major*100 + minor
}

// splitVersion parses "11.8" into 11 and 8.
func splitVersion(v string) (major, minor int) {
	a, b, _ := strings.Cut(v, ".")
	major, _ = strconv.Atoi(a)
	minor, _ = strconv.Atoi(b)
	return major, minor
}

// knownTargets is the fallback table of what each nvcc release compiles
// for, when nvcc cannot list it.
func knownTargets(version string) []Target {
	v := releaseNumber(version)
	var ts []Target
	for _, r := range archReleases {
		if v >= releaseNumber(r.first) && (r.last == "" || v <= releaseNumber(r.last)) {
			ts = append(ts, Target{Arch: r.arch}, Target{Arch: r.arch, PTX: true})
		}
	}
	return normalizeTargets(ts)
}

// defaultArchs are the compute capabilities built by default, as far as the
// toolchain supports them: Turing, Ampere, Ada, Hopper and Blackwell
// (B200/GB200 sm_100, B300 sm_103, RTX 50 sm_120). nvcc 11.8 stops at sm_90;
// 12.8 adds sm_100 and sm_120, 12.9 sm_103. sm_121 (GB10) is left out: its
// cubin differs from sm_120's only in the ELF header's architecture (nvcc
// 13.0, examples/sum), and sm_120 SASS runs on compute capability 12.1.
var defaultArchs = []int{75, 80, 86, 89, 90, 100, 103, 120}

// DefaultTargets returns SASS for each of defaultArchs the toolchain
// supports, plus the PTX of the highest of those for newer GPUs: with nvcc
// 11.8 sm_75…sm_90 and compute_90, with nvcc 13.0 sm_75…sm_120 and
// compute_120.
func (tc *Toolchain) DefaultTargets() ([]Target, error) {
	var ts []Target
	for _, a := range defaultArchs {
		if tc.Supports(Target{Arch: a}) {
			ts = append(ts, Target{Arch: a})
		}
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("nvcc %s supports none of the default targets sm_75…sm_%d; choose targets explicitly", tc.Version, defaultArchs[len(defaultArchs)-1])
	}
	if ptx := (Target{Arch: ts[len(ts)-1].Arch, PTX: true}); tc.Supports(ptx) {
		ts = append(ts, ptx)
	}
	return ts, nil
}

// unsupportedTarget is the error for a target tc cannot compile for. It
// names the nvcc releases that can, and how to install one.
func (tc *Toolchain) unsupportedTarget(t Target) error {
	return fmt.Errorf("nvcc %s (%s) cannot compile for %s: %s; it supports %s",
		tc.Version, tc.Path, t, releasesFor(t.Arch, tc.Version), targetList(tc.Supported))
}

// releasesFor says which nvcc releases compile for arch, for an error about
// nvcc release version, and how to get one.
func releasesFor(arch int, version string) string {
	for _, r := range archReleases {
		if r.arch != arch {
			continue
		}
		v := releaseNumber(version)
		tooOld := r.first != "" && v < releaseNumber(r.first)
		tooNew := r.last != "" && v > releaseNumber(r.last)
		switch {
		case (tooOld || tooNew) && r.first != "" && r.last != "":
			return fmt.Sprintf("nvcc %s to %s can", r.first, r.last)
		case tooOld:
			return fmt.Sprintf("nvcc %s or newer can (scripts/install-cuda-toolkit.sh installs nvcc 13.0, without root)", r.first)
		case tooNew && r.last == "11.8":
			return "nvcc 11.8 or older can (Debian's, scripts/install-debian-nvcc.sh)"
		case tooNew:
			return fmt.Sprintf("nvcc %s or older can (Debian's 11.8, scripts/install-debian-nvcc.sh, for one)", r.last)
		}
		return "nvcc " + version + " should, but does not list it in nvcc --list-gpu-code"
	}
	return fmt.Sprintf("no nvcc release gocccl-gen knows of compiles for compute capability %d.%d", arch/10, arch%10)
}
