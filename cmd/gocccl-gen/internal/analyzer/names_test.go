package analyzer

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/emit"
	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// reservedNamesSource declares variables named like macros and objects of
// the C and CUDA headers, and like the generator's own names.
const reservedNamesSource = `package p

import "github.com/gocccl/gocccl/runtime"

//gocccl:op
func F(stdout, CUDA_VERSION int32) int32 {
	INT32_MAX := stdout + CUDA_VERSION
	SIZE_MAX, CHAR_BIT, GOCCCL_DEVICE := INT32_MAX, int32(1), int32(2)
	gocccl_t0, min := SIZE_MAX, CHAR_BIT
	{
		gocccl_t0 := gocccl_t0 + GOCCCL_DEVICE
		min += gocccl_t0
	}
	return min + gocccl_t0
}

var _ = runtime.Reduce(F)
`

// TestReservedNamesRenamed: the model keeps the Go names, made unique
// within the operator, and the emitter renames every variable C++ cannot
// use.
func TestReservedNamesRenamed(t *testing.T) {
	m := analyzeReservedNames(t)
	op := m.Ops[0]
	var names []string
	for _, p := range op.Params {
		names = append(names, p.Name)
	}
	assert.Equal(t, []string{"stdout", "CUDA_VERSION"}, names)
	dump := model.Format(m)
	for _, want := range []string{"decl INT32_MAX ", "decl SIZE_MAX ", "decl CHAR_BIT ", "decl GOCCCL_DEVICE ",
		"decl gocccl_t0 ", "decl min ", "decl gocccl_t0_1 "} {
		assert.Contains(t, dump, want)
	}
	src, err := emit.CUDASource(m, []emit.Target{{Arch: 80}})
	require.NoError(t, err)
	for _, want := range []string{"int32_t F(int32_t stdout_, int32_t CUDA_VERSION_)", "int32_t INT32_MAX_ =",
		"int32_t SIZE_MAX_ =", "int32_t CHAR_BIT_ =", "int32_t GOCCCL_DEVICE_ =", "int32_t gocccl_t0_ =",
		"int32_t min_ =", "int32_t gocccl_t0_1_ ="} {
		assert.Contains(t, string(src), want)
	}
}

// TestReservedNamesCompile compiles the renamed operator with nvcc for
// sm_80: a variable left named INT32_MAX or stdout would be expanded as a
// macro. It skips without nvcc unless GOCCCL_REQUIRE_NVCC is set.
func TestReservedNamesCompile(t *testing.T) {
	if _, err := emit.FindNVCC(""); err != nil {
		if os.Getenv("GOCCCL_REQUIRE_NVCC") != "" {
			t.Fatalf("nvcc not found, and GOCCCL_REQUIRE_NVCC is set: %v", err)
		}
		t.Skipf("nvcc not found (%v): skipping compilation; install the CUDA toolkit to run it", err)
	}
	m := analyzeReservedNames(t)
	out, err := emit.Generate(context.Background(), m, emit.Options{Targets: []emit.Target{{Arch: 80}}})
	require.NoError(t, err)
	assert.False(t, out.Reused)
}

// analyzeReservedNames analyzes reservedNamesSource.
func analyzeReservedNames(t *testing.T) *model.Package {
	t.Helper()
	m, err, typeErrs := analyzeSource(reservedNamesSource)
	require.Empty(t, typeErrs)
	require.NoError(t, err)
	checkModel(t, m)
	require.Len(t, m.Instances, 1)
	return m
}
