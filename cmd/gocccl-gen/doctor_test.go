package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/emit"
	"github.com/gocccl/gocccl/internal/nccl"
)

func TestDescribeToolchain(t *testing.T) {
	var b bytes.Buffer
	describeToolchain(&b, &emit.Toolchain{
		Path: "/t/nvidia/cu13/bin/nvcc", Version: "13.0", CUB: "3.0.1",
		CUBHeader: "/t/nvidia/cu13/include/cccl/cub/version.cuh", Rule: "$GOCCCL_NVCC",
	})
	assert.Contains(t, b.String(), "nvcc:    /t/nvidia/cu13/bin/nvcc (release 13.0)\n         found by $GOCCCL_NVCC\n")
	assert.Contains(t, b.String(), "CCCL:    3.0.1 (/t/nvidia/cu13/include/cccl/cub/version.cuh)\n")
	assert.Contains(t, b.String(), "CUDA 13.0 or newer JIT")

	b.Reset()
	describeToolchain(&b, &emit.Toolchain{Path: "/usr/bin/nvcc", Version: "11.8", CUB: "1.17.2", CUBHeader: "/usr/include/cub/version.cuh", Rule: "$PATH"})
	assert.Contains(t, b.String(), "CUB:     1.17.2 (/usr/include/cub/version.cuh)\n")
}

func TestJITNote(t *testing.T) {
	tc := &emit.Toolchain{Version: "13.0"}
	assert.Contains(t, jitNote(tc, 12080), "older than nvcc 13.0")
	assert.Empty(t, jitNote(tc, 13000))
	assert.Empty(t, jitNote(tc, 13020))
	assert.Empty(t, jitNote(nil, 12080))
}

// TestDescribeNCCL checks doctor's NCCL line: the version and path where
// NCCL loads, else what was tried and how to install it.
func TestDescribeNCCL(t *testing.T) {
	var b strings.Builder
	describeNCCL(&b)
	if _, err := nccl.Load(); err != nil {
		assert.Contains(t, b.String(), "NCCL:    NCCL not found (tried: ")
		assert.Contains(t, b.String(), "scripts/install-nccl.sh")
		return
	}
	v, err := nccl.GetVersion()
	require.NoError(t, err)
	assert.Regexp(t, `^NCCL:    `+regexp.QuoteMeta(v.String())+` \(.*libnccl\.so\.2\)\n$`, b.String())
}
