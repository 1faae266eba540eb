package emit

import (
	"fmt"
	"go/token"
	"path/filepath"
	"strings"
)

// Names of the generated files in the package directory.
const (
	CUDAFile     = "gocccl_gen.cu"
	GoFile       = "gocccl_gen.go"
	ManifestFile = "gocccl_gen_manifest.json"
	// TestFile holds a test that fails when the package's operators were
	// edited after generation (see package runtime/goccclimpl/opshash).
	TestFile = "gocccl_gen_test.go"
)

// IsGeneratedFile reports whether name (a base name) is a file gocccl-gen
// writes: gocccl_gen.cu, gocccl_gen.go, gocccl_gen_test.go, gocccl_gen_manifest.json,
// gocccl_gen_sm_XY.cubin or gocccl_gen_compute_XY.ptx. Write removes such
// files when the current output no longer holds them; nothing else is ever
// removed.
func IsGeneratedFile(name string) bool {
	switch name {
	case CUDAFile, GoFile, ManifestFile, TestFile:
		return true
	}
	for _, ext := range []string{".cubin", ".ptx"} {
		if !strings.HasPrefix(name, "gocccl_gen_") || !strings.HasSuffix(name, ext) {
			continue
		}
		t, err := ParseTarget(strings.TrimSuffix(strings.TrimPrefix(name, "gocccl_gen_"), ext))
		if err == nil && t.FileName() == name {
			return true
		}
	}
	return false
}

// goPos formats pos as "file.go:12:1" with the base name of the file only,
// so no absolute path reaches any output. It returns "" for an unknown
// position.
func goPos(fset *token.FileSet, pos token.Pos) string {
	if fset == nil || !pos.IsValid() {
		return ""
	}
	p := fset.Position(pos)
	if !p.IsValid() {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)
}
