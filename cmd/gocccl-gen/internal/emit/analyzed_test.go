package emit

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/analyzer"
)

// analyzedCases are accepted cases of the analyzer's testdata that exercise
// the whole operator language: structs and arrays, every loop, switches,
// several results and operators of other packages (transformnm: operators
// of several results as the N×M transforms take them, one imported).
var analyzedCases = []string{"composites", "loops", "switches", "results", "imports", "accept_intrinsics", "macronames", "state", "complex", "half", "transformnm"}

// TestCompileAnalyzedCases translates the analyzer's cases and compiles
// them with the real nvcc: every construct must give C++ that compiles,
// with the struct layouts asserted equal to Go's.
func TestCompileAnalyzedCases(t *testing.T) {
	tc := realNVCC(t)
	headers, err := embeddedHeaders()
	require.NoError(t, err)
	for _, c := range analyzedCases {
		t.Run(c, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join("..", "testdata", c)
			_, err := os.Stat(dir)
			require.NoError(t, err, "analyzer case %s is gone: update analyzedCases", c)
			pkgs, err := analyzer.Load(dir, nil, ".")
			require.NoError(t, err)
			require.Len(t, pkgs, 1)
			src, err := cudaSource(pkgs[0], []Target{{Arch: 90}})
			require.NoError(t, err)
			parts, _ := instanceParts(pkgs[0])
			a, err := tc.compile(context.Background(), src, headers, []Target{{Arch: 90}}, parts, 1)
			require.NoError(t, err, "generated source:\n%s", src.src)
			require.Len(t, a[Target{Arch: 90}].parts, max(1, len(parts)), "one image per part (one of every kernel without instances)")
		})
	}
}
