// Package ptxisa reads the PTX ISA version that PTX text declares and says
// which CUDA driver can JIT-compile it.
//
// nvcc writes its own PTX ISA version into every .ptx (nvcc 11.8 writes 7.8,
// 13.0 writes 9.0), and a driver compiles PTX only up to the ISA version of
// its own CUDA release: PTX from a newer nvcc fails to load on an older driver
// (CUDA_ERROR_UNSUPPORTED_PTX_VERSION), while SASS loads.
package ptxisa

import (
	"bytes"
	"fmt"
	"strconv"
)

// Version is a PTX ISA version, such as 9.0.
type Version struct{ Major, Minor int }

// String returns the version as PTX writes it: "9.0".
func (v Version) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// maxPart bounds each part of a version Parse accepts: far beyond any PTX
// ISA, and small enough that Driver neither overflows nor lets a large minor
// version need a newer driver than the next major version.
const maxPart = 99

// Parse returns the version of the .version directive that PTX text starts
// with (after comments and blank lines); ok is false when it has none, or
// one with a part above 99, which no PTX ISA has.
func Parse(ptx []byte) (v Version, ok bool) {
	for len(ptx) > 0 {
		var line []byte
		line, ptx, _ = bytes.Cut(ptx, []byte("\n"))
		line = bytes.TrimSpace(line)
		if len(line) == 0 || bytes.HasPrefix(line, []byte("//")) {
			continue
		}
		f := bytes.Fields(line)
		if len(f) < 2 || string(f[0]) != ".version" {
			return Version{}, false
		}
		major, minor, found := bytes.Cut(f[1], []byte("."))
		a, err1 := strconv.Atoi(string(major))
		b, err2 := strconv.Atoi(string(minor))
		if !found || err1 != nil || err2 != nil || a < 0 || b < 0 || a > maxPart || b > maxPart {
			return Version{}, false
		}
		return Version{a, b}, true
	}
	return Version{}, false
}

// Driver returns the oldest CUDA driver that JIT-compiles PTX of ISA v, as
// cuDriverGetVersion reports CUDA versions (13000 for 13.0), from the PTX ISA
// release history: ISA 6.x is CUDA 9.0…10.2, 7.x is 11.x, 8.0…8.5 are 12.0…
// 12.5, 8.6…8.8 are 12.7…12.9, and 9.x is 13.x. ISA versions past the table
// are taken to follow 9.x's rule (major+4.minor). It returns 0 for ISA
// versions older than 6.0, which every driver that runs our GPUs compiles.
func (v Version) Driver() int {
	switch {
	case v.Major < 6:
		return 0
	case v.Major == 6:
		if v.Minor <= 2 {
			return 9000 + 10*v.Minor
		}
		return 10000 + 10*(v.Minor-3)
	case v.Major == 7:
		return 11000 + 10*v.Minor
	case v.Major == 8 && v.Minor <= 5:
		return 12000 + 10*v.Minor
	case v.Major == 8:
		return 12000 + 10*(v.Minor+1)
	default:
		return (v.Major+4)*1000 + 10*v.Minor
	}
}

// DriverString formats a CUDA version as cuDriverGetVersion reports it:
// 12080 is "12.8".
func DriverString(cuda int) string { return fmt.Sprintf("%d.%d", cuda/1000, cuda%1000/10) }

// TooOldError is the error for PTX that a driver cannot JIT-compile.
type TooOldError struct {
	ISA    Version // the PTX's ISA version
	Need   int     // the oldest driver that compiles it, e.g. 13000
	Driver int     // the driver's CUDA version, e.g. 12080
}

func (e *TooOldError) Error() string {
	return fmt.Sprintf("PTX ISA %s needs a driver for CUDA %s or newer, and this driver supports CUDA %s",
		e.ISA, DriverString(e.Need), DriverString(e.Driver))
}

// Check returns a *TooOldError when a driver of CUDA version driver (as
// cuDriverGetVersion reports it) cannot JIT-compile ptx, and nil when it can
// or when ptx declares no version.
func Check(ptx []byte, driver int) error {
	v, ok := Parse(ptx)
	if !ok {
		return nil
	}
	if need := v.Driver(); driver < need {
		return &TooOldError{ISA: v, Need: need, Driver: driver}
	}
	return nil
}

// ParseVersion parses a version as String writes it: "9.0".
func ParseVersion(s string) (Version, bool) {
	return Parse([]byte(".version " + s + "\n"))
}
