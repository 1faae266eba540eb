// Package registry holds what generated glue registers when a program
// starts: one Module (the compiled images) per generated package and the
// kernels of every algorithm instance, keyed by algorithm, operators and
// element types. Generated code reaches it through runtime/goccclimpl; the
// runtime looks instances up here when they run. It is bounded by the
// program's generated code and never grows at run time.
package registry

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gocccl/gocccl/internal/arch"
)

// Target is what an image was compiled for.
type Target = arch.Target

// Image is one compiled artifact of a generated package.
type Image struct {
	Target Target
	Data   []byte
	// PTXISA is the PTX ISA version of a PTX image ("9.0"), which the
	// driver must support to JIT-compile it; "" when not recorded.
	PTXISA string
	// SHA256 is the hex sha256 of Data that the generator recorded (glue
	// version 5 on); "" in older glue, whose images are not checked.
	SHA256 string
	// Parts are the images Data holds, one instance's kernels each, which
	// are loaded one at a time (glue version 6 on); none in older glue,
	// whose Data is one image of every kernel.
	Parts []Part
}

// Part is one image inside an Image's Data: a cubin, or PTX text ending in
// a NUL byte, of the kernels of one instance.
type Part struct {
	Offset, Size int
	SHA256       string // hex sha256 of Data[Offset:Offset+Size]
}

// Part returns part k of the image as an image of its own, checked against
// its recorded sha256: a corrupted or truncated embedded image is never
// given to the driver. An image without parts is its own part 0.
func (im Image) Part(k int) (Image, error) {
	part := im
	if len(im.Parts) == 0 {
		if k != 0 {
			return Image{}, fmt.Errorf("the embedded %s image has no part %d; run go generate", im.Target, k)
		}
	} else {
		if k < 0 || k >= len(im.Parts) {
			return Image{}, fmt.Errorf("the embedded %s image has parts 0 to %d, not %d; run go generate", im.Target, len(im.Parts)-1, k)
		}
		p := im.Parts[k]
		if p.SHA256 == "" {
			return Image{}, fmt.Errorf("the embedded %s image is damaged: its part %d has no recorded sha256, so it was not loaded; run go generate", im.Target, k)
		}
		if p.Offset < 0 || p.Size <= 0 || p.Offset > len(im.Data)-p.Size {
			return Image{}, fmt.Errorf("the embedded %s image is damaged (%d bytes, its part %d should lie at %d, %d bytes): it was not loaded; rebuild the program, and run go generate if the generated files were edited", im.Target, len(im.Data), k, p.Offset, p.Size)
		}
		part = Image{Target: im.Target, Data: im.Data[p.Offset : p.Offset+p.Size : p.Offset+p.Size], PTXISA: im.PTXISA, SHA256: p.SHA256}
	}
	if err := part.Verify(); err != nil {
		return Image{}, err
	}
	return part, nil
}

// Verify returns an error when the image's data does not have the sha256
// the generator recorded: a corrupted or truncated embedded image, which is
// never given to the driver.
func (im Image) Verify() error {
	if im.SHA256 == "" {
		return nil
	}
	sum := sha256.Sum256(im.Data)
	if got := hex.EncodeToString(sum[:]); got != im.SHA256 {
		return fmt.Errorf("the embedded %s image is damaged (%d bytes, sha256 %.12s…, generated as %.12s…): it was not loaded; rebuild the program, and run go generate if the generated files were edited", im.Target, len(im.Data), got, im.SHA256)
	}
	return nil
}

// Module is the compiled kernels of one generated package.
type Module struct {
	pkg    string
	hash   string
	images []Image
	checks [][]partCheck // checks[i][k] is images[i].Part(k), done once
}

// partCheck is the result of one image part's check, computed once per
// process: the embedded data never changes.
type partCheck struct {
	once sync.Once
	part Image
	err  error
}

// Package returns the import path of the generated package.
func (m *Module) Package() string { return m.pkg }

// Hash returns the content hash of the generated inputs, as recorded in the
// package's gocccl_gen_manifest.json.
func (m *Module) Hash() string { return m.hash }

// Images returns the module's images.
func (m *Module) Images() []Image { return m.images }

// Targets lists the targets the module was compiled for.
func (m *Module) Targets() []Target {
	ts := make([]Target, len(m.images))
	for i, im := range m.images {
		ts[i] = im.Target
	}
	return ts
}

// NewModule records a generated package's images; pkg is the package's
// import path and hash the content hash from its manifest.
func NewModule(pkg, hash string, images []Image) *Module {
	m := &Module{pkg: pkg, hash: hash, images: images, checks: make([][]partCheck, len(images))}
	for i, im := range images {
		m.checks[i] = make([]partCheck, max(1, len(im.Parts)))
	}
	state.mu.Lock()
	state.modules = append(state.modules, m)
	state.mu.Unlock()
	return m
}

// Parts returns how many parts each of the module's images holds: one
// instance's kernels each (one, every kernel, in glue before version 6 and
// in a module without images).
func (m *Module) Parts() int {
	if len(m.images) == 0 {
		return 1
	}
	return max(1, len(m.images[0].Parts))
}

// PartImage is image i's Part(k), checked once per process: callers of one
// part wait for the first and share its result. Hashing a part takes
// microseconds (an instance's cubin is tens of kilobytes); hashing a whole
// image took milliseconds (a 3.4 MB cubin: 2.9 ms on the H200's host), which
// VerifyAhead moves off a program's first call.
func (m *Module) PartImage(i, k int) (Image, error) {
	if k < 0 || k >= len(m.checks[i]) {
		return m.images[i].Part(k) // the error
	}
	c := &m.checks[i][k]
	c.once.Do(func() { c.part, c.err = m.images[i].Part(k) })
	return c.part, c.err
}

// VerifyAhead checks, one module after another on the calling goroutine,
// every part of the image each registered module would load on a device of
// compute capability major.minor (SelectImage's choice). A device starts it
// in the background when it opens, so that a part's first load finds its
// hash checked; a load that comes first checks its part itself.
func VerifyAhead(major, minor int) {
	state.mu.RLock()
	mods := slices.Clone(state.modules)
	state.mu.RUnlock()
	for _, m := range mods {
		if i, _, err := m.SelectImage(major, minor); err == nil {
			for k := range m.checks[i] {
				_, _ = m.PartImage(i, k)
			}
		}
	}
}

// SelectImage is SelectImage over the module's images, returning the
// chosen image's index for Verify.
func (m *Module) SelectImage(major, minor int) (i int, reason string, err error) {
	im, reason, err := SelectImage(m.images, major, minor)
	if err != nil {
		return -1, "", err
	}
	for i := range m.images {
		if m.images[i].Target == im.Target {
			return i, reason, nil
		}
	}
	return -1, "", fmt.Errorf("registry: selected image %s is not the module's", im.Target)
}

// Packages returns the packages whose generated modules are registered in
// this program, sorted.
func Packages() []string {
	state.mu.RLock()
	defer state.mu.RUnlock()
	var pkgs []string
	for _, m := range state.modules {
		pkgs = append(pkgs, m.pkg)
	}
	slices.Sort(pkgs)
	return pkgs
}

// ModuleOf returns the module that the generated package pkg registered, or
// nil when pkg registered none in this program.
func ModuleOf(pkg string) *Module {
	state.mu.RLock()
	defer state.mu.RUnlock()
	for _, m := range state.modules {
		if m.pkg == pkg {
			return m
		}
	}
	return nil
}

// SelectImage picks the image to load on a device of compute capability
// major.minor: SASS for exactly that capability; else SASS of the same major
// version and the highest lower minor; else the PTX of the highest arch not
// above the device, which the driver compiles; else an error that lists what
// was built. The reason says which rule chose the image.
func SelectImage(images []Image, major, minor int) (im Image, reason string, err error) {
	dev := major*10 + minor
	best := -1
	for _, c := range images {
		if !c.Target.PTX && c.Target.Arch == dev {
			return c, fmt.Sprintf("exact SASS match %s", c.Target), nil
		}
	}
	for i, c := range images {
		t := c.Target
		if !t.PTX && t.Arch/10 == major && t.Arch < dev && (best < 0 || t.Arch > images[best].Target.Arch) {
			best = i
		}
	}
	if best >= 0 {
		t := images[best].Target
		return images[best], fmt.Sprintf("compatible SASS %s for compute capability %d.%d", t, major, minor), nil
	}
	for i, c := range images {
		t := c.Target
		if t.PTX && t.Arch <= dev && (best < 0 || t.Arch > images[best].Target.Arch) {
			best = i
		}
	}
	if best >= 0 {
		t := images[best].Target
		return images[best], fmt.Sprintf("PTX %s compiled by the driver for compute capability %d.%d", t, major, minor), nil
	}
	var built []string
	for _, c := range images {
		built = append(built, c.Target.String())
	}
	if len(built) == 0 {
		built = append(built, "nothing")
	}
	return Image{}, "", fmt.Errorf("no image for compute capability %d.%d: built %s; regenerate with -arch including sm_%d",
		major, minor, strings.Join(built, ", "), dev)
}

// state holds every module and kernel registration of the program. It is
// filled by generated init functions and read by algorithm handles.
var state struct {
	mu        sync.RWMutex
	modules   []*Module
	instances map[Key]*Registration
}
