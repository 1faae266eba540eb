package devcheck

import (
	"errors"
	"math"
	"testing"
	"unsafe"

	"github.com/gocccl/gocccl/runtime"
)

// recorder is a testing.TB that records a failure instead of stopping the
// test, so that RequireBitEqual's verdicts can be checked.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Fatalf(string, ...any) { r.failed = true }
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) FailNow()              { r.failed = true }
func (r *recorder) Helper()               {}

func TestRequireBitEqual(t *testing.T) {
	nan1, nan2 := math.Float32frombits(0x7fc00001), math.Float32frombits(0x7fc00002)
	for _, c := range []struct {
		name      string
		want, got []float32
		fails     bool
	}{
		{"equal", []float32{1, 2, 3}, []float32{1, 2, 3}, false},
		{"same NaN payload", []float32{nan1}, []float32{nan1}, false},
		{"empty", nil, []float32{}, false},
		{"one value", []float32{1, 2, 3}, []float32{1, 2, 4}, true},
		{"signed zeros", []float32{0}, []float32{float32(math.Copysign(0, -1))}, true},
		{"NaN payloads", []float32{nan1}, []float32{nan2}, true},
		{"lengths", []float32{1, 2}, []float32{1}, true},
	} {
		r := &recorder{TB: t}
		RequireBitEqual(r, c.want, c.got, c.name)
		if r.failed != c.fails {
			t.Errorf("%s: failed = %v, want %v", c.name, r.failed, c.fails)
		}
	}
}

func TestUploadDownload(t *testing.T) {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	xs := []int64{3, -1, 4, 1 << 40}
	got := Download(t, Upload(t, d, xs))
	RequireBitEqual(t, xs, got, "round trip")
}

// TestFreedAtTestEnd: what Upload and Alloc return is usable during the test
// and freed when it ends.
func TestFreedAtTestEnd(t *testing.T) {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var up *runtime.Slice[float32]
	var al *runtime.Slice[uint16]
	t.Run("inner", func(t *testing.T) {
		up, al = Upload(t, d, []float32{1, 2}), Alloc[uint16](t, d, 3)
		if al.Len() != 3 {
			t.Fatalf("Alloc: %d elements, want 3", al.Len())
		}
		RequireBitEqual(t, []float32{1, 2}, Download(t, up), "upload")
		Download(t, al)
	})
	if _, err := up.ToHost(); !errors.Is(err, runtime.ErrFreed) {
		t.Errorf("Upload after the test: %v, want %v", err, runtime.ErrFreed)
	}
	if _, err := al.ToHost(); !errors.Is(err, runtime.ErrFreed) {
		t.Errorf("Alloc after the test: %v, want %v", err, runtime.ErrFreed)
	}
}

func TestPoison(t *testing.T) {
	type rec struct {
		a int8
		b float64
	}
	if p := Poison[int32](0); len(p) != 0 {
		t.Fatalf("Poison(0): %d elements", len(p))
	}
	ps := Poison[rec](3)
	if len(ps) != 3 {
		t.Fatalf("Poison(3): %d elements", len(ps))
	}
	for i, b := range unsafe.Slice((*byte)(unsafe.Pointer(&ps[0])), 3*unsafe.Sizeof(ps[0])) {
		if b != 0xAB {
			t.Fatalf("byte %d is %#x, want 0xab", i, b)
		}
	}
	RequireBitEqual(t, Poison[float32](2), []float32{math.Float32frombits(0xABABABAB), math.Float32frombits(0xABABABAB)}, "float32")
}
