package runtime

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Target is what an image was compiled for: SASS for one compute capability,
// or PTX that the driver compiles for the device it runs on.
type Target struct {
	Arch int  // compute capability × 10, e.g. 90 for 9.0
	PTX  bool // PTX rather than SASS
}

// String returns nvcc's name for the target: "sm_90" or "compute_90".
func (t Target) String() string {
	if t.PTX {
		return fmt.Sprintf("compute_%d", t.Arch)
	}
	return fmt.Sprintf("sm_%d", t.Arch)
}

// Image is one compiled artifact of a generated package.
type Image struct {
	Target Target
	Data   []byte
	// PTXISA is the PTX ISA version of a PTX image ("9.0"), which the
	// driver must support to JIT-compile it; "" when not recorded.
	PTXISA string
}

// Module is the compiled kernels of one generated package. Generated code
// creates it with NewModule when the program starts; it is loaded onto a
// device the first time one of its kernels runs there, and stays loaded until
// the device is closed.
type Module struct {
	pkg    string
	hash   string
	images []Image
}

// Package returns the import path of the generated package.
func (m *Module) Package() string { return m.pkg }

// Hash returns the content hash of the generated inputs, as recorded in the
// package's gocccl_gen_manifest.json.
func (m *Module) Hash() string { return m.hash }

// Targets lists the targets the module was compiled for.
func (m *Module) Targets() []Target {
	ts := make([]Target, len(m.images))
	for i, im := range m.images {
		ts[i] = im.Target
	}
	return ts
}

// NewModule records a generated package's images. It is called by generated
// code; pkg is the package's import path and hash the content hash from its
// manifest.
func NewModule(pkg, hash string, images []Image) *Module {
	m := &Module{pkg: pkg, hash: hash, images: images}
	registry.mu.Lock()
	registry.modules = append(registry.modules, m)
	registry.mu.Unlock()
	return m
}

// Modules returns the packages whose generated modules are registered in this
// program, sorted.
func Modules() []string {
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	var pkgs []string
	for _, m := range registry.modules {
		pkgs = append(pkgs, m.pkg)
	}
	sort.Strings(pkgs)
	return pkgs
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

// registry holds every module and kernel registration of the program. It is
// filled by generated init functions and read by algorithm handles.
var registry struct {
	mu      sync.RWMutex
	modules []*Module
	kernels map[kernelKey]*registration
}
