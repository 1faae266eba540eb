package emit

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/analyzer"
	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

func loadAnalyzerCase(t *testing.T, name string) *model.Package {
	t.Helper()
	pkgs, err := analyzer.Load(filepath.Join("..", "testdata", name), nil, ".")
	require.NoError(t, err)
	require.Len(t, pkgs, 1)
	return pkgs[0]
}

// TestStateSource checks what an instance with per-call state becomes: its
// entry points take the state last and hand it to the block's __shared__
// copy, whose functor reads it when constructed; the glue names the state
// type and its layout and is version 3, while a package without state keeps
// version 2.
func TestStateSource(t *testing.T) {
	pkg := loadAnalyzerCase(t, "state")
	src, err := CUDASource(pkg, []Target{{Arch: 90}})
	require.NoError(t, err)
	s := string(src)
	ns := cNamespace(pkg.Path)
	for _, want := range []string{
		"__device__ __forceinline__ float Axpy_Apply(::" + ns + "::Axpy p, float x, float y) {",
		"__shared__ ::" + ns + "::Axpy gocccl_state_Axpy;",
		"__shared__ int32_t gocccl_state_Scale;",
		"struct Axpy_Apply {\n  ::" + ns + "::Axpy state;\n  __device__ __forceinline__ Axpy_Apply() : state(gocccl_state_Axpy) {}\n  __device__ __forceinline__ float operator()(float a0, float a1) const {\n    return ::" + ns + "::Axpy_Apply(state, a0, a1);",
		"gocccl_transform2_Axpy_Apply(const float* d_a, const float* d_b, float* d_out, long long n, const ::" + ns + "::Axpy gocccl_state) {\n  if (threadIdx.x == 0) ::" + ns + "::gocccl_functors::gocccl_state_Axpy = gocccl_state;\n  __syncthreads();\n  ::gocccl::transform2<",
		"gocccl_inclusive_scan_Limits_Clamp_init(void* d_state, long long state_bytes, long long num_tiles, const ::" + ns + "::Limits gocccl_state) {",
		// A plain instance in the same package takes no state.
		"gocccl_transform_twice(const int32_t* d_in, int32_t* d_out, long long n) {\n  ::gocccl::transform<",
		// Views: the Go layout, read with view_at and view_len.
		"#include <gocccl/gosem.cuh>\n#include <gocccl/view.cuh>\n",
		"  ::gocccl::go::view<float> Table;\n",
		"static_assert(offsetof(::" + ns + "::Lookup, Table) == 8, \"offset of Lookup.Table differs from Go's\");",
		"static_assert(offsetof(::" + ns + "::Lookup, Inner) == 32, \"offset of Lookup.Inner differs from Go's\");",
		"  ::gocccl::go::array<::gocccl::go::view<::" + ns + "::Pair>, 2> R;\n",
		"return ::gocccl::go::fmul<float>(l.Scale, ::gocccl::go::view_at(t, ::gocccl::go::rem(::gocccl::go::conv<int64_t>(i), ::gocccl::go::view_len(l.Table))));",
		"gocccl_transform_Lookup_Get(const uint8_t* d_in, float* d_out, long long n, const ::" + ns + "::Lookup gocccl_state) {",
	} {
		assert.Contains(t, s, want)
	}
	assert.Equal(t, 1, strings.Count(s, "__shared__ ::"+ns+"::Limits gocccl_state_Limits;"), "one state variable per state type")

	glue, err := GoGlue(pkg, goldenManifest([]Target{{Arch: 90}}))
	require.NoError(t, err)
	g := string(glue)
	assert.Contains(t, g, "EnforceVersion_RunGoGenerate(6 - goccclimpl.MinVersion)")
	assert.Contains(t, g, "Ops:       []any{Axpy.Apply},")
	assert.Contains(t, g, "State:       reflect.TypeFor[Axpy](),\n\t\tStateLayout: \"{Alpha@0:float32}/4\",")
	assert.Contains(t, g, "State:       reflect.TypeFor[Scale](),\n\t\tStateLayout: \"int32/4\",")
	assert.Contains(t, g, "State:       reflect.TypeFor[Lookup](),\n\t\tStateLayout: \"{Scale@0:float32,Table@8:view[float32],Inner@32:{R@0:[2]view[{Lo@0:int32,Hi@4:int32}]}}/80\",")

	basic, err := CUDASource(loadAnalyzerCase(t, "basic"), []Target{{Arch: 90}})
	require.NoError(t, err)
	assert.NotContains(t, string(basic), "view.cuh", "a package without views does not include view.cuh")

	plain, err := GoGlue(loadAnalyzerCase(t, "basic"), goldenManifest([]Target{{Arch: 90}}))
	require.NoError(t, err)
	assert.Contains(t, string(plain), "EnforceVersion_RunGoGenerate(6 - goccclimpl.MinVersion)")
	assert.NotContains(t, string(plain), "State")
}
