package ptxisa

import (
	"errors"
	"testing"
)

// FuzzCheck reads the PTX ISA version of arbitrary text and checks it
// against a driver of CUDA version driver. Nothing may panic. A version
// Parse finds must have no negative part, must parse back from its String
// through ParseVersion, and must need a driver no older than an older
// version does (the previous minor, the same major's .0, the previous
// major's last and the first of each major). Check must refuse exactly when the text declares a version whose
// oldest driver is newer than driver, with a *TooOldError that says so.
func FuzzCheck(f *testing.F) {
	f.Fuzz(func(t *testing.T, ptx []byte, driver int) {
		v, ok := Parse(ptx)
		err := Check(ptx, driver)
		if !ok {
			if v != (Version{}) {
				t.Fatalf("Parse(%q) = %v, false; want the zero version", ptx, v)
			}
			if err != nil {
				t.Fatalf("Check(%q, %d) = %v; want nil for text without a version", ptx, driver, err)
			}
			return
		}
		if v.Major < 0 || v.Minor < 0 {
			t.Fatalf("Parse(%q) = %v, with a negative part", ptx, v)
		}
		if back, ok := ParseVersion(v.String()); !ok || back != v {
			t.Fatalf("ParseVersion(%q) = %v, %v; want %v", v.String(), back, ok, v)
		}
		need := v.Driver()
		if need < 0 {
			t.Fatalf("ISA %v needs driver %d", v, need)
		}
		for _, older := range []Version{{v.Major, v.Minor - 1}, {v.Major, 0}, {v.Major - 1, 99}, {6, 0}, {7, 0}, {8, 0}, {8, 6}, {9, 0}} {
			if older.Minor >= 0 && older.Major >= 0 && older.less(v) && older.Driver() > need {
				t.Fatalf("ISA %v needs driver %d, but the older %v needs %d", v, need, older, older.Driver())
			}
		}
		var tooOld *TooOldError
		switch {
		case driver >= need && err != nil:
			t.Fatalf("Check(%q, %d) = %v; ISA %v needs driver %d", ptx, driver, err, v, need)
		case driver < need && !errors.As(err, &tooOld):
			t.Fatalf("Check(%q, %d) = %v; want a *TooOldError, ISA %v needs driver %d", ptx, driver, err, v, need)
		case tooOld != nil && *tooOld != (TooOldError{ISA: v, Need: need, Driver: driver}):
			t.Fatalf("Check(%q, %d) = %#v; want ISA %v, need %d, driver %d", ptx, driver, *tooOld, v, need, driver)
		}
	})
}

// less orders versions.
func (v Version) less(w Version) bool {
	return v.Major < w.Major || v.Major == w.Major && v.Minor < w.Minor
}
