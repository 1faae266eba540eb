package emit

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// artifact is one target's compiled image: the images of its parts (one
// instance's kernels each, see splitPTX) back to back, each at a multiple of
// PartAlign bytes. A PTX part ends in a NUL byte, which the driver needs.
type artifact struct {
	data  []byte
	parts []PartHash
	// relaxed lists the kernels the spill guard compiled with a looser
	// bound than their policy's (see Relaxed), in part order.
	relaxed []Relaxed
}

// joinParts lays part images out as an artifact.
func joinParts(images [][]byte) *artifact {
	a := &artifact{parts: make([]PartHash, len(images))}
	for i, im := range images {
		for len(a.data)%PartAlign != 0 {
			a.data = append(a.data, 0)
		}
		a.data = append(a.data, im...)
		a.parts[i] = PartHash{Size: len(im), SHA256: sha256Hex(im)}
	}
	return a
}

// PartOffsets returns where each part begins in its artifact. A negative
// or absurd size (a damaged manifest) gives offsets that checkParts refuses.
func PartOffsets(parts []PartHash) []int {
	offs := make([]int, len(parts))
	at := 0
	for i, p := range parts {
		at = (at + PartAlign - 1) / PartAlign * PartAlign
		offs[i] = at
		at += max(0, min(p.Size, 1<<40))
	}
	return offs
}

// checkParts reports whether data holds the parts at their offsets, with
// the recorded hashes, and nothing after the last.
func checkParts(data []byte, parts []PartHash) bool {
	offs := PartOffsets(parts)
	end := 0
	for i, p := range parts {
		if p.Size < 0 || offs[i] > len(data) || p.Size > len(data)-offs[i] || sha256Hex(data[offs[i]:offs[i]+p.Size]) != p.SHA256 {
			return false
		}
		end = offs[i] + p.Size
	}
	return len(parts) > 0 && end == len(data)
}

// instanceParts groups the kernels of pkg's instances into parts, in
// instance order: one part per instance, instances that share a kernel in
// one part. It returns each part's kernels and each instance's part.
func instanceParts(pkg *model.Package) (parts [][]string, partOf []int) {
	partOf = make([]int, len(pkg.Instances))
	kernelPart := make(map[string]int)
	for i, in := range pkg.Instances {
		sym := instanceSymbol(in)
		p := -1
		for _, k := range in.Algorithm.Kernels {
			if q, ok := kernelPart[k.Symbol(sym)]; ok {
				p = q
				break
			}
		}
		if p < 0 {
			p = len(parts)
			parts = append(parts, nil)
		}
		for _, k := range in.Algorithm.Kernels {
			name := k.Symbol(sym)
			if _, ok := kernelPart[name]; !ok {
				kernelPart[name] = p
				parts[p] = append(parts[p], name)
			}
		}
		partOf[i] = p
	}
	return parts, partOf
}

// The compile cache holds an artifact as a header line, the JSON of its
// parts' sizes and of the kernels the spill guard relaxed, then its data:
// {"parts":[46584,129080],"relaxed":[…]}\n.
type cachedHeader struct {
	Parts   []int     `json:"parts"`
	Relaxed []Relaxed `json:"relaxed,omitempty"`
}

func encodeArtifact(a *artifact) []byte {
	h := cachedHeader{Relaxed: a.relaxed}
	for _, p := range a.parts {
		h.Parts = append(h.Parts, p.Size)
	}
	line, _ := json.Marshal(h) // ints and strings: cannot fail
	return append(append(line, '\n'), a.data...)
}

func decodeArtifact(b []byte) (*artifact, error) {
	line, data, ok := bytes.Cut(b, []byte("\n"))
	var h cachedHeader
	if !ok || json.Unmarshal(line, &h) != nil || len(h.Parts) == 0 {
		return nil, fmt.Errorf("no parts header")
	}
	a := &artifact{data: data, parts: make([]PartHash, len(h.Parts)), relaxed: h.Relaxed}
	for i, n := range h.Parts {
		if n < 0 || n > len(data) {
			return nil, fmt.Errorf("part size %d", n)
		}
		a.parts[i].Size = n
	}
	offs := PartOffsets(a.parts)
	for i, p := range a.parts {
		if offs[i] > len(data) || p.Size > len(data)-offs[i] {
			return nil, fmt.Errorf("part %d past the end", i)
		}
		a.parts[i].SHA256 = sha256Hex(data[offs[i] : offs[i]+p.Size])
	}
	if last := len(a.parts) - 1; offs[last]+a.parts[last].Size != len(data) {
		return nil, fmt.Errorf("bytes after the last part")
	}
	return a, nil
}
