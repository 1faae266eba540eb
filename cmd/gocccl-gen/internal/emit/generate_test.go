package emit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// snapshot returns every file of dir with its contents.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	files := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		files[e.Name()] = string(b)
	}
	return files
}

func compileCount(t *testing.T, log string) int {
	b, err := os.ReadFile(log)
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	require.NoError(t, err)
	return strings.Count(string(b), "\n")
}

func fileNames(o *Output) []string {
	var names []string
	for _, f := range o.Files {
		names = append(names, f.Name)
	}
	return names
}

func TestGenerateWriteCheckReuse(t *testing.T) {
	nvcc, log := fakeNVCC(t, true)
	dir := t.TempDir()
	pkg := reducePkg()
	pkg.Dir = dir
	ctx := context.Background()

	// Default targets come from the toolchain.
	out, err := Generate(ctx, pkg, Options{NVCC: nvcc})
	require.NoError(t, err)
	assert.False(t, out.Reused)
	assert.Equal(t, []string{
		"gocccl_gen.cu", "gocccl_gen.go", "gocccl_gen_compute_90.ptx", "gocccl_gen_manifest.json",
		"gocccl_gen_sm_75.cubin", "gocccl_gen_sm_80.cubin", "gocccl_gen_sm_86.cubin", "gocccl_gen_sm_89.cubin", "gocccl_gen_sm_90.cubin",
	}, fileNames(out))
	// nvcc runs once per architecture for the package's PTX (sm_90 and
	// compute_90 share one), then once per part (the model's three
	// instances) of each of the five SASS targets.
	assert.Equal(t, 5+5*3, compileCount(t, log))
	assert.True(t, sort.SliceIsSorted(out.Files, func(i, j int) bool { return out.Files[i].Name < out.Files[j].Name }))
	m := out.Manifest
	assert.Equal(t, "11.8", m.NVCC)
	assert.Equal(t, "1.17.2", m.CUB)
	assert.Equal(t, Flags(), m.Flags)
	assert.Len(t, m.Files, 8, "every file but the manifest")
	for _, f := range out.Files {
		assert.NotContains(t, string(f.Data), dir, "%s holds the package directory", f.Name)
		if f.Name == ManifestFile {
			assert.True(t, strings.HasSuffix(string(f.Data), "}\n"))
			continue
		}
		assert.Equal(t, sha256Hex(f.Data), m.FileSHA256(f.Name), f.Name)
	}
	glue := string(fileData(out, GoFile))
	assert.Contains(t, glue, m.InputHash, "the glue registers the module with the input hash")

	// Deterministic.
	again, err := Generate(ctx, pkg, Options{NVCC: nvcc})
	require.NoError(t, err)
	assert.Equal(t, out.Files, again.Files)

	require.NoError(t, out.Write(dir))
	stale, err := Check(pkg, dir, Options{})
	require.NoError(t, err)
	assert.Empty(t, stale, "up to date right after writing")
	for name := range snapshot(t, dir) {
		assert.True(t, IsGeneratedFile(name), "unexpected file %s (a temporary left behind?)", name)
	}

	// Unchanged inputs: the artifacts are reused and nvcc is not even needed.
	before := compileCount(t, log)
	reused, err := Generate(ctx, pkg, Options{NVCC: filepath.Join(t.TempDir(), "no-nvcc")})
	require.NoError(t, err)
	assert.True(t, reused.Reused)
	assert.Equal(t, out.Files, reused.Files)
	assert.Equal(t, before, compileCount(t, log))

	// A damaged artifact is not reused.
	cubin := filepath.Join(dir, "gocccl_gen_sm_80.cubin")
	require.NoError(t, os.WriteFile(cubin, []byte("damaged"), 0o644))
	stale, err = Check(pkg, dir, Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"gocccl_gen_sm_80.cubin"}, stale)
	rebuilt, err := Generate(ctx, pkg, Options{NVCC: nvcc})
	require.NoError(t, err)
	assert.False(t, rebuilt.Reused)
	require.NoError(t, rebuilt.Write(dir))
	stale, err = Check(pkg, dir, Options{})
	require.NoError(t, err)
	assert.Empty(t, stale)

	// Fewer targets: the artifacts of the others are removed, and the
	// manifest's targets are what Check and Generate use from then on.
	fewer, err := Generate(ctx, pkg, Options{NVCC: nvcc, Targets: []Target{{Arch: 80}, {Arch: 90, PTX: true}}})
	require.NoError(t, err)
	require.NoError(t, fewer.Write(dir))
	assert.Equal(t, []string{"gocccl_gen.cu", "gocccl_gen.go", "gocccl_gen_compute_90.ptx", "gocccl_gen_manifest.json", "gocccl_gen_sm_80.cubin"}, sortedKeys(snapshot(t, dir)))
	stale, err = Check(pkg, dir, Options{})
	require.NoError(t, err)
	assert.Empty(t, stale)
	stale, err = Check(pkg, dir, Options{Targets: []Target{{Arch: 75}, {Arch: 80}, {Arch: 90, PTX: true}}})
	require.NoError(t, err)
	assert.Equal(t, []string{"gocccl_gen.go", "gocccl_gen_compute_90.ptx", "gocccl_gen_manifest.json", "gocccl_gen_sm_75.cubin", "gocccl_gen_sm_80.cubin"}, stale,
		"other targets change the input hash, so the glue, the manifest and every artifact (the source is the same: one policy for all)")
}

func fileData(o *Output, name string) []byte {
	for _, f := range o.Files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// TestCheckReportsChanges edits one thing at a time and checks what Check
// reports.
func TestCheckReportsChanges(t *testing.T) {
	nvcc, _ := fakeNVCC(t, true)
	targets := []Target{{Arch: 80}, {Arch: 90}}
	setup := func(t *testing.T) (string, *model.Package) {
		dir := t.TempDir()
		pkg := reducePkg()
		out, err := Generate(context.Background(), pkg, Options{NVCC: nvcc, Targets: targets})
		require.NoError(t, err)
		require.NoError(t, out.Write(dir))
		return dir, pkg
	}
	edit := func(t *testing.T, dir, name, content string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	check := func(t *testing.T, pkg *model.Package, dir string) []string {
		stale, err := Check(pkg, dir, Options{})
		require.NoError(t, err)
		return stale
	}

	t.Run("cu edited", func(t *testing.T) {
		dir, pkg := setup(t)
		edit(t, dir, CUDAFile, "// edited\n")
		assert.Equal(t, []string{CUDAFile}, check(t, pkg, dir))
	})
	t.Run("go edited", func(t *testing.T) {
		dir, pkg := setup(t)
		edit(t, dir, GoFile, "package sum\n")
		assert.Equal(t, []string{GoFile}, check(t, pkg, dir))
	})
	t.Run("artifact edited", func(t *testing.T) {
		dir, pkg := setup(t)
		edit(t, dir, "gocccl_gen_sm_90.cubin", "x")
		assert.Equal(t, []string{"gocccl_gen_sm_90.cubin"}, check(t, pkg, dir))
	})
	t.Run("artifact missing", func(t *testing.T) {
		dir, pkg := setup(t)
		require.NoError(t, os.Remove(filepath.Join(dir, "gocccl_gen_sm_80.cubin")))
		assert.Equal(t, []string{"gocccl_gen_sm_80.cubin"}, check(t, pkg, dir))
	})
	t.Run("extra artifact", func(t *testing.T) {
		dir, pkg := setup(t)
		edit(t, dir, "gocccl_gen_sm_70.cubin", "old")
		edit(t, dir, "gocccl_gen_extra_test.go", "package sum\n") // not ours
		assert.Equal(t, []string{"gocccl_gen_sm_70.cubin"}, check(t, pkg, dir))
	})
	t.Run("manifest edited", func(t *testing.T) {
		dir, pkg := setup(t)
		b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
		require.NoError(t, err)
		edit(t, dir, ManifestFile, strings.Replace(string(b), `"nvcc": "11.8"`, `"nvcc":"11.8"`, 1))
		assert.Equal(t, []string{ManifestFile}, check(t, pkg, dir))
	})
	t.Run("manifest missing", func(t *testing.T) {
		dir, pkg := setup(t)
		require.NoError(t, os.Remove(filepath.Join(dir, ManifestFile)))
		// Without a manifest there are no targets to compare with.
		assert.Equal(t, []string{CUDAFile, GoFile, ManifestFile, "gocccl_gen_sm_80.cubin", "gocccl_gen_sm_90.cubin"}, check(t, pkg, dir))
		stale, err := Check(pkg, dir, Options{Targets: targets})
		require.NoError(t, err)
		assert.Equal(t, []string{GoFile, ManifestFile, "gocccl_gen_sm_80.cubin", "gocccl_gen_sm_90.cubin"}, stale,
			"the source is right; nothing vouches for the artifacts, nor for the parts the glue records")
	})
	t.Run("manifest unparsable", func(t *testing.T) {
		dir, pkg := setup(t)
		edit(t, dir, ManifestFile, "{")
		unreadable := ManifestFile + " (unreadable: unexpected end of JSON input)"
		assert.Equal(t, []string{CUDAFile, GoFile, unreadable, "gocccl_gen_sm_80.cubin", "gocccl_gen_sm_90.cubin"}, check(t, pkg, dir))
		stale, err := Check(pkg, dir, Options{Targets: targets})
		require.NoError(t, err)
		assert.Equal(t, []string{GoFile, unreadable, "gocccl_gen_sm_80.cubin", "gocccl_gen_sm_90.cubin"}, stale)

		// Generate takes it for no manifest: it compiles again and Write
		// replaces it.
		pkg.Dir = dir
		out, err := Generate(context.Background(), pkg, Options{NVCC: nvcc, Targets: targets})
		require.NoError(t, err)
		assert.False(t, out.Reused)
		require.NoError(t, out.Write(dir))
		assert.Empty(t, check(t, pkg, dir))
	})
	t.Run("manifest unreadable", func(t *testing.T) {
		dir, pkg := setup(t)
		require.NoError(t, os.Remove(filepath.Join(dir, ManifestFile)))
		require.NoError(t, os.Mkdir(filepath.Join(dir, ManifestFile), 0o755))
		stale, err := Check(pkg, dir, Options{Targets: targets})
		require.NoError(t, err)
		assert.Equal(t, []string{GoFile, ManifestFile + " (unreadable: is a directory)", "gocccl_gen_sm_80.cubin", "gocccl_gen_sm_90.cubin"}, stale)
	})
	t.Run("operator changed", func(t *testing.T) {
		dir, pkg := setup(t)
		pkg.Ops[0].Body.Stmts[0].(*model.ReturnStmt).Results[0].(*model.Binary).Op = model.Sub
		assert.Equal(t, []string{CUDAFile, GoFile, ManifestFile, "gocccl_gen_sm_80.cubin", "gocccl_gen_sm_90.cubin"}, check(t, pkg, dir))
	})
	t.Run("instances gone", func(t *testing.T) {
		dir, pkg := setup(t)
		pkg.Instances = nil
		assert.Equal(t, []string{CUDAFile, GoFile, ManifestFile, "gocccl_gen_sm_80.cubin", "gocccl_gen_sm_90.cubin"}, check(t, pkg, dir))
		out, err := Generate(context.Background(), pkg, Options{NVCC: nvcc})
		require.NoError(t, err)
		assert.Empty(t, out.Files)
		require.NoError(t, out.Write(dir))
		assert.Empty(t, snapshot(t, dir), "a package without instances has no generated files")
		assert.Empty(t, check(t, pkg, dir))
	})
}

// TestNoInstances: operators alone generate nothing and need no nvcc.
func TestNoInstances(t *testing.T) {
	pkg := reducePkg()
	pkg.Instances = nil
	out, err := Generate(context.Background(), pkg, Options{NVCC: filepath.Join(t.TempDir(), "no-nvcc")})
	require.NoError(t, err)
	assert.Empty(t, out.Files)
	assert.Nil(t, out.Manifest)
	dir := t.TempDir()
	require.NoError(t, out.Write(dir))
	assert.Empty(t, snapshot(t, dir))
	stale, err := Check(pkg, dir, Options{})
	require.NoError(t, err)
	assert.Empty(t, stale)
}

// TestWriteAtomic injects a failure while the temporary files are written:
// the directory must be left exactly as it was.
func TestWriteAtomic(t *testing.T) {
	nvcc, _ := fakeNVCC(t, true)
	dir := t.TempDir()
	pkg := reducePkg()
	old, err := Generate(context.Background(), pkg, Options{NVCC: nvcc, Targets: []Target{{Arch: 75}, {Arch: 80}}})
	require.NoError(t, err)
	require.NoError(t, old.Write(dir))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sum.go"), []byte("package sum\n"), 0o644))
	before := snapshot(t, dir)

	pkg.Ops[0].Body.Stmts[0].(*model.ReturnStmt).Results[0].(*model.Binary).Op = model.Sub
	next, err := Generate(context.Background(), pkg, Options{NVCC: nvcc, Targets: []Target{{Arch: 90}}})
	require.NoError(t, err)

	for _, failAt := range []string{CUDAFile, "gocccl_gen_sm_90.cubin", ManifestFile} {
		t.Run(failAt, func(t *testing.T) {
			testHookWrite = func(name string) error {
				if name == failAt {
					return errors.New("injected failure")
				}
				return nil
			}
			defer func() { testHookWrite = nil }()
			err := next.Write(dir)
			require.ErrorContains(t, err, "injected failure")
			assert.Equal(t, before, snapshot(t, dir), "the directory changed although Write failed")
		})
	}

	require.NoError(t, next.Write(dir))
	after := snapshot(t, dir)
	assert.Equal(t, []string{"gocccl_gen.cu", "gocccl_gen.go", "gocccl_gen_manifest.json", "gocccl_gen_sm_90.cubin", "sum.go"}, sortedKeys(after),
		"the sm_75 and sm_80 artifacts of the earlier run are removed, the user's file is kept")
	info, err := os.Stat(filepath.Join(dir, GoFile))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), info.Mode().Perm())
}

// embedded returns the files the //go:embed directives of glue name.
func embedded(glue string) []string {
	var names []string
	for _, line := range strings.Split(glue, "\n") {
		if name, ok := strings.CutPrefix(strings.TrimSpace(line), "//go:embed "); ok {
			names = append(names, name)
		}
	}
	return names
}

// TestWriteRenameOrder checks that Write renames the artifacts first, then
// the CUDA source, the glue and the manifest, and that a crash between any
// two renames leaves glue whose //go:embed files all exist.
func TestWriteRenameOrder(t *testing.T) {
	nvcc, _ := fakeNVCC(t, true)
	setup := func(t *testing.T) (string, *Output) {
		testHookRename = nil
		dir := t.TempDir()
		pkg := reducePkg()
		old, err := Generate(context.Background(), pkg, Options{NVCC: nvcc, Targets: []Target{{Arch: 75}, {Arch: 80}}})
		require.NoError(t, err)
		require.NoError(t, old.Write(dir))
		pkg.Ops[0].Body.Stmts[0].(*model.ReturnStmt).Results[0].(*model.Binary).Op = model.Sub
		next, err := Generate(context.Background(), pkg, Options{NVCC: nvcc, Targets: []Target{{Arch: 90}, {Arch: 90, PTX: true}}})
		require.NoError(t, err)
		return dir, next
	}
	defer func() { testHookRename = nil }()

	dir, next := setup(t)
	var order []string
	testHookRename = func(name string) error {
		order = append(order, name)
		return nil
	}
	require.NoError(t, next.Write(dir))
	assert.Equal(t, []string{"gocccl_gen_compute_90.ptx", "gocccl_gen_sm_90.cubin", CUDAFile, GoFile, ManifestFile}, order)

	for _, failAt := range order {
		t.Run("crash before "+failAt, func(t *testing.T) {
			dir, next := setup(t)
			before := snapshot(t, dir)
			testHookRename = func(name string) error {
				if name == failAt {
					return errors.New("injected crash")
				}
				return nil
			}
			require.ErrorContains(t, next.Write(dir), "injected crash")
			after := snapshot(t, dir)
			for _, name := range embedded(after[GoFile]) {
				_, ok := after[name]
				assert.True(t, ok, "the glue on disk embeds %s, which is missing", name)
			}
			if failAt != ManifestFile {
				assert.True(t, before[ManifestFile] == after[ManifestFile], "the manifest went before the other files")
			}
			if failAt != ManifestFile && failAt != GoFile {
				assert.True(t, before[GoFile] == after[GoFile], "the glue went before the artifacts and the source")
			}
			for name := range after {
				assert.True(t, IsGeneratedFile(name), "unexpected file %s (a temporary left behind?)", name)
			}
		})
	}
}

// TestWriteAllAtomic: WriteAll writes several packages all or nothing: a
// directory that cannot be written to, or a failed write in the last
// package, leaves every directory as it was, with no temporary file.
func TestWriteAllAtomic(t *testing.T) {
	out := func(tag string) *Output {
		return &Output{Files: []File{{Name: CUDAFile, Data: []byte("// " + tag)}, {Name: GoFile, Data: []byte("package p // " + tag)}, {Name: ManifestFile, Data: []byte("{}" + tag)}}}
	}
	a, b := t.TempDir(), t.TempDir()
	require.NoError(t, WriteAll([]*Output{out("old"), out("old")}, []string{a, b}))
	beforeA, beforeB := snapshot(t, a), snapshot(t, b)

	// Not a directory at all (root may write anywhere else).
	notDir := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(notDir, nil, 0o644))
	err := WriteAll([]*Output{out("new"), out("new")}, []string{a, filepath.Join(notDir, "pkg")})
	require.ErrorContains(t, err, filepath.Join(notDir, "pkg"))
	assert.Equal(t, beforeA, snapshot(t, a), "the first package was written although the second could not be")

	calls := 0
	testHookWrite = func(name string) error {
		if calls++; calls == 5 { // the second file of the second package
			return errors.New("injected failure")
		}
		return nil
	}
	defer func() { testHookWrite = nil }()
	err = WriteAll([]*Output{out("new"), out("new")}, []string{a, b})
	require.ErrorContains(t, err, "injected failure")
	assert.Equal(t, beforeA, snapshot(t, a))
	assert.Equal(t, beforeB, snapshot(t, b))

	testHookWrite = nil
	require.NoError(t, WriteAll([]*Output{out("new"), out("new")}, []string{a, b}))
	assert.Equal(t, "// new", snapshot(t, b)[CUDAFile])
}
