package emit

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefaultTargetsPerRelease(t *testing.T) {
	tests := []struct{ version, want string }{
		{"11.0", "sm_75 sm_80 compute_80"},
		{"11.8", "sm_75 sm_80 sm_86 sm_89 sm_90 compute_90"},
		{"12.4", "sm_75 sm_80 sm_86 sm_89 sm_90 compute_90"},
		{"12.8", "sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_120 compute_120"},
		{"12.9", "sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_103 sm_120 compute_120"},
		{"13.0", "sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_103 sm_120 compute_120"},
	}
	for _, tt := range tests {
		tc := &Toolchain{Version: tt.version, Supported: knownTargets(tt.version)}
		ts, err := tc.DefaultTargets()
		require.NoError(t, err, tt.version)
		assert.Equal(t, tt.want, targetNames(ts), tt.version)
	}

	// What nvcc 13.0 lists (--list-gpu-code, --list-gpu-arch) matches the
	// table.
	listed, err := ParseTargets("sm_75,sm_80,sm_86,sm_87,sm_88,sm_89,sm_90,sm_100,sm_110,sm_103,sm_120,sm_121," +
		"compute_75,compute_80,compute_86,compute_87,compute_88,compute_89,compute_90,compute_100,compute_110,compute_103,compute_120,compute_121")
	require.NoError(t, err)
	assert.Equal(t, listed, knownTargets("13.0"))

	_, err = (&Toolchain{Version: "9.0", Supported: []Target{{Arch: 70}}}).DefaultTargets()
	assert.ErrorContains(t, err, "none of the default targets sm_75…sm_120")
}

func TestKnownTargetsWindows(t *testing.T) {
	for _, tt := range []struct {
		version string
		arch    int
		ok      bool
	}{
		{"11.8", 35, true}, {"12.0", 35, false},
		{"12.9", 70, true}, {"13.0", 70, false},
		{"11.8", 90, true}, {"11.7", 90, false},
		{"12.7", 100, false}, {"12.8", 100, true}, {"12.8", 103, false}, {"12.9", 103, true},
		{"12.9", 101, true}, {"13.0", 101, false}, {"13.0", 110, true},
		{"12.9", 88, false}, {"13.0", 88, true}, {"13.5", 121, true},
	} {
		assert.Equal(t, tt.ok, contains(knownTargets(tt.version), Target{Arch: tt.arch}), "nvcc %s sm_%d", tt.version, tt.arch)
	}
}

func contains(ts []Target, t Target) bool {
	for _, u := range ts {
		if u == t {
			return true
		}
	}
	return false
}

func TestUnsupportedTargetNamesRelease(t *testing.T) {
	tests := []struct {
		version string
		target  Target
		want    string
	}{
		{"11.8", Target{Arch: 100}, "nvcc 11.8 (/x/nvcc) cannot compile for sm_100: nvcc 12.8 or newer can (scripts/install-cuda-toolkit.sh"},
		{"11.8", Target{Arch: 121, PTX: true}, "cannot compile for compute_121: nvcc 12.9 or newer can"},
		{"11.8", Target{Arch: 101}, "nvcc 12.8 to 12.9 can"},
		{"13.0", Target{Arch: 101}, "nvcc 12.8 to 12.9 can"},
		{"13.0", Target{Arch: 70}, "nvcc 12.9 or older can (Debian's 11.8"},
		{"13.0", Target{Arch: 35}, "nvcc 11.8 or older can (Debian's"},
		{"13.0", Target{Arch: 99}, "no nvcc release gocccl-gen knows of compiles for compute capability 9.9"},
		{"13.0", Target{Arch: 90}, "does not list it"},
	}
	for _, tt := range tests {
		tc := &Toolchain{Path: "/x/nvcc", Version: tt.version, Supported: []Target{{Arch: 75}}}
		err := tc.unsupportedTarget(tt.target)
		assert.Contains(t, err.Error(), tt.want, "%s %s", tt.version, tt.target)
		assert.Contains(t, err.Error(), "it supports sm_75")
	}

	// compile refuses such a target before running nvcc.
	nvcc, log := fakeNVCC(t, true)
	tc, err := LoadToolchain(context.Background(), nvcc)
	require.NoError(t, err)
	_, err = tc.compile(context.Background(), brokenSource(t), nil, []Target{{Arch: 90}, {Arch: 120}}, nil, 1)
	assert.ErrorContains(t, err, "cannot compile for sm_120: nvcc 12.8 or newer can")
	assert.NoFileExists(t, log)
}
