package emit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// Options control Generate and Check.
type Options struct {
	// Targets to compile for (the -arch flag). Empty means the package's
	// //gocccl:arch targets (model.Package.Targets), else the targets of the
	// package's existing manifest, so that a plain go generate keeps what an
	// earlier explicit -arch chose, else the toolchain's DefaultTargets.
	Targets []Target
	// NVCC is the nvcc executable; empty searches as FindNVCC does.
	NVCC string
	// Jobs bounds the nvcc runs in parallel; ≤ 0 means GOMAXPROCS.
	Jobs int
}

// File is one generated file: its base name in the package directory and
// its contents.
type File struct {
	Name string
	Data []byte
}

// Output is everything Generate produced for one package.
type Output struct {
	// Files are the generated files sorted by name: gocccl_gen.cu,
	// gocccl_gen.go, one artifact per target and the manifest. A package
	// without algorithm instances has none: its operators need no kernels.
	Files []File
	// Manifest is the decoded gocccl_gen_manifest.json; nil without files.
	Manifest *Manifest
	// Reused is set when the artifacts were taken from the package
	// directory, because the input hash was unchanged and every artifact
	// matched its recorded sha256, and nvcc did not run.
	Reused bool
	// Cached lists the targets whose images came from the compile cache
	// (see OpenCache) rather than from an nvcc run.
	Cached []Target
}

// Generate produces the generated files of pkg. When pkg.Dir holds a
// manifest with the same input hash whose artifacts are all present and
// intact, it reuses them without running nvcc (and without needing one);
// otherwise it takes each target's image from the compile cache (see
// OpenCache) or compiles it there. Nothing is written: see Output.Write.
func Generate(ctx context.Context, pkg *model.Package, opts Options) (*Output, error) {
	if len(pkg.Instances) == 0 {
		return &Output{}, nil
	}
	headers, err := embeddedHeaders()
	if err != nil {
		return nil, err
	}
	var old *Manifest
	if pkg.Dir != "" {
		// A manifest that is missing, unreadable or unparsable vouches for
		// nothing: every target is compiled, and Write replaces it.
		if m, err := ReadManifest(filepath.Join(pkg.Dir, ManifestFile)); err == nil {
			old = m
		}
	}
	var tc *Toolchain
	targets, err := selectTargets(pkg, opts, old)
	if err != nil {
		return nil, err
	}
	if len(targets) == 0 {
		if tc, err = LoadToolchain(ctx, opts.NVCC); err != nil {
			return nil, err
		}
		if targets, err = tc.DefaultTargets(); err != nil {
			return nil, err
		}
	}
	src, err := cudaSource(pkg, targets)
	if err != nil {
		return nil, err
	}
	m := &Manifest{
		Generator: "gocccl-gen " + Version,
		Flags:     Flags(),
		Targets:   targets,
		InputHash: InputHash(src.src, headers, Flags(), targets),
	}
	parts, _ := instanceParts(pkg)
	images, reused := reuseImages(pkg.Dir, old, m, len(parts))
	var cached []Target
	if reused {
		m.NVCC, m.CUB, m.PTXISA = old.NVCC, old.CUB, old.PTXISA
	} else {
		if tc == nil {
			if tc, err = LoadToolchain(ctx, opts.NVCC); err != nil {
				return nil, err
			}
		}
		cache, err := OpenCache()
		if err != nil {
			return nil, err
		}
		if images, cached, err = compileCached(ctx, cache, tc, src, headers, targets, parts, opts.Jobs); err != nil {
			return nil, err
		}
		m.NVCC, m.CUB, m.PTXISA = tc.Version, tc.CUB, imagesPTXISA(images)
	}
	out, err := assemble(pkg, m, src.src, images, nil)
	if err != nil {
		return nil, err
	}
	out.Reused, out.Cached = reused, cached
	return out, nil
}

// reuseImages returns the artifacts of m's targets from dir when old has the
// same input hash and each artifact matches the sha256 old records, its
// nparts parts too.
func reuseImages(dir string, old, m *Manifest, nparts int) (map[Target]*artifact, bool) {
	if dir == "" || old == nil || old.InputHash != m.InputHash {
		return nil, false
	}
	images := make(map[Target]*artifact, len(m.Targets))
	for _, t := range m.Targets {
		name := t.FileName()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || old.FileSHA256(name) != sha256Hex(b) || len(old.FileParts(name)) != nparts || !checkParts(b, old.FileParts(name)) {
			return nil, false
		}
		images[t] = &artifact{data: b, parts: old.FileParts(name), relaxed: old.FileRelaxed(name)}
	}
	return images, true
}

// assemble completes m with the glue and the hash of every file and returns
// all files sorted by name. The glue records each image's sha256: imageHash
// gives it (nil: the hash of images' data).
func assemble(pkg *model.Package, m *Manifest, cu []byte, images map[Target]*artifact, imageHash func(Target) string) (*Output, error) {
	m.Files = nil
	for _, t := range m.Targets {
		h := sha256Hex(images[t].data)
		if imageHash != nil {
			h = imageHash(t)
		}
		m.Files = append(m.Files, FileHash{Name: t.FileName(), SHA256: h, Parts: images[t].parts, Relaxed: images[t].relaxed})
	}
	glue, err := GoGlue(pkg, m)
	if err != nil {
		return nil, err
	}
	files := []File{{Name: CUDAFile, Data: cu}, {Name: GoFile, Data: glue}}
	test, err := GoTest(pkg)
	if err != nil {
		return nil, err
	}
	if test != nil {
		files = append(files, File{Name: TestFile, Data: test})
	}
	parts := make(map[string]*artifact, len(m.Targets))
	for _, t := range m.Targets {
		files = append(files, File{Name: t.FileName(), Data: images[t].data})
		parts[t.FileName()] = images[t]
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	m.Files = nil
	for _, f := range files {
		fh := FileHash{Name: f.Name, SHA256: sha256Hex(f.Data)}
		if a := parts[f.Name]; a != nil {
			fh.Parts, fh.Relaxed = a.parts, a.relaxed
		}
		m.Files = append(m.Files, fh)
	}
	mb, err := m.Marshal()
	if err != nil {
		return nil, err
	}
	files = append(files, File{Name: ManifestFile, Data: mb})
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	return &Output{Files: files, Manifest: m}, nil
}

// Test hooks: testHookWrite is called after each temporary file is
// written, testHookRename before each temporary file is renamed into place,
// with the file's name; an error aborts Write as a failed write or rename
// would.
var testHookWrite, testHookRename func(name string) error

// Write writes the output into dir atomically: every file first goes to a
// temporary file in dir, and only when all are written are they renamed into
// place (in the order of renameRank); an error before the renames leaves dir
// as it was. Files whose contents are already on disk are left untouched.
// Then generated files that the output no longer holds (see IsGeneratedFile;
// the artifact of a target no longer built, or everything when the package
// has no instances any more) are removed.
func (o *Output) Write(dir string) error {
	return WriteAll([]*Output{o}, []string{dir})
}

// WriteAll writes outs[i] into dirs[i] as Write does, all or nothing across
// the packages: every package's temporary files are written before any is
// renamed into place, so that an error (a directory that is not writable,
// a full disk) leaves every directory as it was.
func WriteAll(outs []*Output, dirs []string) error {
	if len(outs) != len(dirs) {
		return fmt.Errorf("emit.WriteAll: %d outputs for %d directories", len(outs), len(dirs))
	}
	staged := make([]*staging, 0, len(outs))
	for i, o := range outs {
		st, err := o.stage(dirs[i])
		if err != nil {
			for _, s := range staged {
				s.abort()
			}
			return err
		}
		staged = append(staged, st)
	}
	for i, st := range staged {
		if err := st.commit(); err != nil {
			for _, s := range staged[i+1:] {
				s.abort()
			}
			return err
		}
	}
	return nil
}

// staging is an Output written to temporary files in its directory, ready
// to be renamed into place.
type staging struct {
	dir   string
	todo  []pending
	keep  map[string]bool
	stale []string
}

// pending is one temporary file and the name it gets.
type pending struct{ name, tmp string }

// stage writes o's changed files to temporary files in dir; on an error
// it removes those it wrote.
func (o *Output) stage(dir string) (*staging, error) {
	st := &staging{dir: dir, keep: make(map[string]bool, len(o.Files))}
	for _, f := range o.Files {
		st.keep[f.Name] = true
		if old, err := os.ReadFile(filepath.Join(dir, f.Name)); err == nil && bytes.Equal(old, f.Data) {
			continue
		}
		tmp, err := writeTemp(dir, f)
		if err == nil && testHookWrite != nil {
			err = testHookWrite(f.Name)
		}
		if tmp != "" {
			st.todo = append(st.todo, pending{f.Name, tmp})
		}
		if err != nil {
			st.abort()
			return nil, fmt.Errorf("write %s: %w", filepath.Join(dir, f.Name), err)
		}
	}
	var err error
	if st.stale, err = generatedFiles(dir); err != nil {
		st.abort()
		return nil, err
	}
	return st, nil
}

// abort removes the temporary files.
func (st *staging) abort() {
	for _, p := range st.todo {
		os.Remove(p.tmp)
	}
}

// commit renames the temporary files into place and removes the generated
// files the output no longer holds.
func (st *staging) commit() error {
	todo := st.todo
	sort.SliceStable(todo, func(i, j int) bool { return renameRank(todo[i].name) < renameRank(todo[j].name) })
	for i, p := range todo {
		if err := renameInto(st.dir, p.tmp, p.name); err != nil {
			for _, q := range todo[i:] {
				os.Remove(q.tmp)
			}
			return fmt.Errorf("write %s: %w", filepath.Join(st.dir, p.name), err)
		}
	}
	for _, name := range st.stale {
		if st.keep[name] {
			continue
		}
		if err := os.Remove(filepath.Join(st.dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove stale %s: %w", filepath.Join(st.dir, name), err)
		}
	}
	return nil
}

// renameRank orders the renames of Write so that a crash between two of
// them leaves a directory that still builds: first the artifacts (new names
// are added; stale ones are removed only after all renames), then the CUDA
// source, then the glue, whose //go:embed names the artifacts, and last the
// manifest, so that until everything is in place its hashes do not match
// and Check and Generate see stale output.
func renameRank(name string) int {
	switch name {
	case CUDAFile:
		return 1
	case GoFile, TestFile:
		return 2
	case ManifestFile:
		return 3
	}
	return 0 // an artifact
}

// renameInto moves the temporary file tmp into place as dir/name.
func renameInto(dir, tmp, name string) error {
	if testHookRename != nil {
		if err := testHookRename(name); err != nil {
			return err
		}
	}
	return os.Rename(tmp, filepath.Join(dir, name))
}

// writeTemp writes f's contents to a new temporary file in dir, readable by
// all, and returns its path (also on a write error, for removal).
func writeTemp(dir string, f File) (string, error) {
	t, err := os.CreateTemp(dir, ".gocccl-gen-*.tmp")
	if err != nil {
		return "", err
	}
	_, err = t.Write(f.Data)
	if err == nil {
		err = t.Chmod(0o644)
	}
	if cerr := t.Close(); err == nil {
		err = cerr
	}
	return t.Name(), err
}

// generatedFiles lists the files in dir that gocccl-gen writes, sorted.
func generatedFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", filepath.Base(dir), err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && IsGeneratedFile(e.Name()) {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

// Check reports the generated files in dir that are stale: missing, with
// other contents than Generate would produce (gocccl_gen.cu, gocccl_gen.go,
// gocccl_gen_test.go, the manifest), built from other inputs (the manifest's input hash differs),
// not matching their recorded sha256 (artifacts), or no longer generated at
// all. It needs no nvcc: the targets are opts.Targets or the manifest's, and
// the toolchain versions are taken from the manifest. A manifest that exists
// but cannot be read or parsed is reported with the reason, as
// "gocccl_gen_manifest.json (unreadable: …)". The result is sorted and empty
// when everything is up to date; a package without instances is up to date
// when dir holds no generated files.
func Check(pkg *model.Package, dir string, opts Options) ([]string, error) {
	report, err := CheckReport(pkg, dir, opts)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(report))
	for i, st := range report {
		names[i] = st.Name
		if st.Name == ManifestFile && strings.HasPrefix(st.Reason, "unreadable: ") {
			names[i] = st.String()
		}
	}
	sort.Strings(names)
	return names, nil
}

// Stale is one out-of-date generated file and why it is out of date.
type Stale struct {
	Name   string // base name in the package directory
	Reason string // e.g. "missing", "differs", "built from other inputs"
}

// String returns "name (reason)".
func (s Stale) String() string { return s.Name + " (" + s.Reason + ")" }

// CheckReport is Check with the reason for each stale file, sorted by name.
func CheckReport(pkg *model.Package, dir string, opts Options) ([]Stale, error) {
	existing, err := generatedFiles(dir)
	if err != nil {
		return nil, err
	}
	stale := make(map[string]string)
	if len(pkg.Instances) == 0 {
		for _, name := range existing {
			stale[name] = "the package has no algorithm instances any more"
		}
		return sortedStale(stale), nil
	}
	expected := map[string]bool{CUDAFile: true, GoFile: true, ManifestFile: true}
	old, err := ReadManifest(filepath.Join(dir, ManifestFile))
	unreadable := ""
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		unreadable = "unreadable: " + manifestCause(err)
	}
	targets, err := selectTargets(pkg, opts, old)
	if err != nil {
		return nil, err
	}
	if len(targets) == 0 { // nothing says what to build: all of it is missing
		for name := range expected {
			stale[name] = "missing"
		}
	} else {
		if err := checkFiles(pkg, dir, targets, old, stale, expected); err != nil {
			return nil, err
		}
	}
	for _, name := range existing {
		if !expected[name] {
			stale[name] = "no longer generated: its target is not built"
		}
	}
	if unreadable != "" {
		stale[ManifestFile] = unreadable
	}
	return sortedStale(stale), nil
}

// sortedStale returns the stale files of m (name → reason) sorted by name.
func sortedStale(m map[string]string) []Stale {
	out := make([]Stale, 0, len(m))
	for name, reason := range m {
		out = append(out, Stale{Name: name, Reason: reason})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// manifestCause returns why ReadManifest failed, without the file's path,
// which the stale list names already.
func manifestCause(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	if cause := errors.Unwrap(err); cause != nil {
		return cause.Error()
	}
	return err.Error()
}

// checkFiles compares the files of dir with what Generate would write for
// targets, marking stale ones; expected collects the names it expects.
func checkFiles(pkg *model.Package, dir string, targets []Target, old *Manifest, stale map[string]string, expected map[string]bool) error {
	headers, err := embeddedHeaders()
	if err != nil {
		return err
	}
	src, err := cudaSource(pkg, targets)
	if err != nil {
		return err
	}
	m := &Manifest{
		Generator: "gocccl-gen " + Version,
		Flags:     Flags(),
		Targets:   targets,
		InputHash: InputHash(src.src, headers, Flags(), targets),
	}
	sameInputs := old != nil && old.InputHash == m.InputHash
	parts, _ := instanceParts(pkg)
	if old != nil {
		m.NVCC, m.CUB, m.PTXISA = old.NVCC, old.CUB, old.PTXISA
	}
	images := make(map[Target]*artifact, len(targets))
	for _, t := range targets {
		name := t.FileName()
		expected[name] = true
		b, err := os.ReadFile(filepath.Join(dir, name))
		a := &artifact{data: b}
		if old != nil {
			a.parts, a.relaxed = old.FileParts(name), old.FileRelaxed(name)
		}
		switch {
		case err != nil:
			stale[name] = "missing"
		case !sameInputs:
			stale[name] = "built from other inputs: " + inputsDiff(old, m)
		case old.FileSHA256(name) != sha256Hex(b):
			stale[name] = "sha256 does not match the manifest: damaged or edited"
		case !checkParts(b, a.parts):
			stale[name] = "its parts do not match the manifest"
		case len(a.parts) != len(parts):
			stale[name] = fmt.Sprintf("%d parts for %d instances' kernels", len(a.parts), len(parts))
		}
		images[t] = a
	}
	// The glue is judged by the image hashes it should record: the
	// recorded ones when the inputs are the same (a damaged image is stale
	// itself, not its glue).
	want, err := assemble(pkg, m, src.src, images, func(t Target) string {
		if sameInputs { // old is not nil
			if h := old.FileSHA256(t.FileName()); h != "" {
				return h
			}
		}
		return sha256Hex(images[t].data)
	})
	if err != nil {
		return err
	}
	// A damaged artifact is stale itself; the manifest is judged by the
	// hashes it should record, which are the recorded ones.
	if sameInputs {
		for i, f := range m.Files {
			if h := old.FileSHA256(f.Name); h != "" && f.Name != CUDAFile && f.Name != GoFile && f.Name != TestFile {
				m.Files[i].SHA256 = h
			}
		}
	}
	mb, err := m.Marshal()
	if err != nil {
		return err
	}
	for _, f := range want.Files {
		switch f.Name {
		case ManifestFile:
			f.Data = mb
		case TestFile:
			expected[TestFile] = true
		case CUDAFile, GoFile:
		default:
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, f.Name))
		switch {
		case err != nil:
			stale[f.Name] = "missing"
		case !bytes.Equal(b, f.Data):
			stale[f.Name] = "differs from what gocccl-gen generates now"
		}
	}
	return nil
}
