package emit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
)

// Version is the version of the generator, recorded in manifests.
const Version = "0.1.0"

// Manifest is gocccl_gen_manifest.json: what produced a package's generated
// files and the sha256 of each, so that gocccl-gen check can tell stale
// output and go generate can skip nvcc when nothing changed.
//
// InputHash covers exactly what determines the compiled artifacts apart from
// the toolchain: the CUDA source, every embedded header (path and contents),
// the nvcc flags and the targets. The toolchain versions are recorded but not
// hashed, so a patch update of nvcc does not make generated output stale;
// regenerate after a toolchain change by deleting the manifest (or the
// artifacts) if the new compiler's output is wanted.
//
// PTXISA, recorded like the toolchain versions, is the PTX ISA version the
// PTX images declare: a driver JIT-compiles them only if its CUDA release
// supports that version (ISA 9.0 needs CUDA 13.0). It is empty when there is
// no PTX image, or the images were compiled before it was recorded.
type Manifest struct {
	Generator string     `json:"generator"`        // "gocccl-gen 0.1.0"
	NVCC      string     `json:"nvcc"`             // nvcc release, e.g. "11.8"
	CUB       string     `json:"cub"`              // CUB version from cub/version.cuh, e.g. "1.17.2"
	PTXISA    string     `json:"ptxISA,omitempty"` // PTX ISA of the PTX images, e.g. "9.0"; see above
	Flags     []string   `json:"flags"`            // nvcc flags common to every target
	Targets   []Target   `json:"targets"`          // sorted, e.g. ["sm_80", "sm_90", "compute_90"]
	InputHash string     `json:"inputHash"`        // hex sha256, see InputHash
	Files     []FileHash `json:"files"`            // every generated file but the manifest, sorted by name
}

// FileHash is the sha256 of one generated file and, for an artifact, of
// each of its parts.
type FileHash struct {
	Name   string     `json:"name"`
	SHA256 string     `json:"sha256"`          // hex
	Parts  []PartHash `json:"parts,omitempty"` // an artifact's parts, in order
	// Relaxed lists the kernels of an artifact that the spill guard
	// compiled with fewer blocks an SM than their policy asks.
	Relaxed []Relaxed `json:"relaxed,omitempty"`
}

// PartHash is the size and sha256 of one part of an artifact: the image of
// the kernels of one instance (see splitPTX). Parts lie back to back, each
// at a multiple of PartAlign bytes, zero bytes between them.
type PartHash struct {
	Size   int    `json:"size"`
	SHA256 string `json:"sha256"` // hex
}

// PartAlign is the alignment of every part in an artifact.
const PartAlign = 16

// FileParts returns the recorded parts of the named artifact, nil when the
// manifest lists none.
func (m *Manifest) FileParts(name string) []PartHash {
	for _, f := range m.Files {
		if f.Name == name {
			return f.Parts
		}
	}
	return nil
}

// Marshal returns the manifest as indented JSON with a trailing newline, in a
// fixed field order.
func (m *Manifest) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	return append(b, '\n'), nil
}

// FileSHA256 returns the recorded hash of the named file, or "" when the
// manifest does not list it.
func (m *Manifest) FileSHA256(name string) string {
	for _, f := range m.Files {
		if f.Name == name {
			return f.SHA256
		}
	}
	return ""
}

// FileRelaxed returns the kernels of the named artifact that the spill
// guard relaxed, nil when the manifest lists none.
func (m *Manifest) FileRelaxed(name string) []Relaxed {
	for _, f := range m.Files {
		if f.Name == name {
			return f.Relaxed
		}
	}
	return nil
}

// ReadManifest reads and decodes a manifest file. A file that cannot be read
// gives the *fs.PathError of the read (errors.Is(err, fs.ErrNotExist) when
// it is missing); one that does not decode gives "manifest <name>: <cause>".
func ReadManifest(path string) (*Manifest, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("manifest %s: %w", filepath.Base(path), err)
	}
	// A JSON null among the targets decodes, without an error, as the zero
	// Target, which no target string names: it would be written back as
	// "sm_0", which does not read.
	for i, t := range m.Targets {
		if t == (Target{}) {
			return nil, fmt.Errorf("manifest %s: %w", filepath.Base(path), fmt.Errorf("target %d is null", i))
		}
	}
	return &m, nil
}

// InputHash returns the hex sha256 over the inputs of the compiled
// artifacts: the CUDA source, each header it includes, directly or through
// another (sorted by path, path and contents), the flags and the targets,
// each length-prefixed. A header the source does not reach does not count:
// changing the radix sort's header leaves a package of reductions up to date.
func InputHash(cu []byte, headers []File, flags []string, targets []Target) string {
	h := sha256.New()
	item := func(kind string, data []byte) {
		fmt.Fprintf(h, "%s %d\n", kind, len(data))
		h.Write(data)
	}
	// v3: artifacts of one part per instance; v4: compiled through the
	// spill guard, whose limit counts as an input. A change to what a part
	// holds (splitPTX, joinParts, the guard) must bump it, and cacheVersion
	// with it.
	io.WriteString(h, "gocccl-gen input v4\n")
	item("max-spill-bytes", []byte(strconv.Itoa(MaxSpillBytes)))
	item("cu", cu)
	hs := includedHeaders(cu, headers)
	sort.Slice(hs, func(i, j int) bool { return hs[i].Name < hs[j].Name })
	for _, f := range hs {
		item("header", []byte(f.Name))
		item("contents", f.Data)
	}
	for _, f := range flags {
		item("flag", []byte(f))
	}
	for _, t := range normalizeTargets(targets) {
		item("target", []byte(t.String()))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// includeLine matches an #include of one of our headers: <gocccl/x.cuh>
// or "gocccl/x.cuh".
var includeLine = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*include[ \t]*[<"](gocccl/[^>"]+)[>"]`)

// includedHeaders returns the headers that cu includes, directly or through
// other headers, in the order first reached. Headers are named
// "include/gocccl/x.cuh", as embeddedHeaders names them.
func includedHeaders(cu []byte, headers []File) []File {
	byName := make(map[string]File, len(headers))
	for _, f := range headers {
		byName[f.Name] = f
	}
	var out []File
	seen := map[string]bool{}
	queue := [][]byte{cu}
	for len(queue) > 0 {
		src := queue[0]
		queue = queue[1:]
		for _, m := range includeLine.FindAllSubmatch(src, -1) {
			name := "include/" + string(m[1])
			f, ok := byName[name]
			if !ok || seen[name] {
				continue
			}
			seen[name] = true
			out = append(out, f)
			queue = append(queue, f.Data)
		}
	}
	return out
}

// sha256Hex returns the hex sha256 of data.
func sha256Hex(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// cubVersionString formats CUB_VERSION (e.g. 101702) as "1.17.2".
func cubVersionString(v int) string {
	return strconv.Itoa(v/100000) + "." + strconv.Itoa(v/100%1000) + "." + strconv.Itoa(v%100)
}
