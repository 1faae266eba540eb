package registry

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gocccl/gocccl/internal/arch"
)

// FuzzImageVerify checks an image's data against a recorded hash: the
// fuzzed string as it is, the data's own sha256, or the sha256 of the data
// with its last byte cut off (a truncated image). Verify must never panic,
// and it must accept exactly when no hash is recorded or the recorded hash
// is the data's sha256, as the generator writes it (lowercase hex).
func FuzzImageVerify(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, recorded string, mode uint8) {
		switch mode % 3 {
		case 1:
			recorded = sha256Hex(data)
		case 2:
			if len(data) > 0 {
				recorded = sha256Hex(data[:len(data)-1])
			}
		}
		im := Image{Target: arch.Target{Arch: 90}, Data: data, SHA256: recorded}
		err := im.Verify()
		if want := recorded == "" || recorded == sha256Hex(data); want != (err == nil) {
			t.Fatalf("Verify of %d bytes recorded as %q: %v; want accepted %v", len(data), recorded, err, want)
		}
		if err != nil && !strings.Contains(err.Error(), "sm_90 image is damaged") {
			t.Errorf("Verify: %v; want it to name the damaged sm_90 image", err)
		}
	})
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// FuzzSelectImage parses a target list as gocccl-gen's -arch flag takes it
// and adds targets decoded from raw bytes (two a target, architectures 0 to
// 1023, PTX or SASS), then selects an image for a device of compute
// capability major.minor as a driver reports it (major 0…99, minor 0…9).
// Nothing may panic. A parsed target must print as what parses back to it.
// A selected image must be one of the images; a SASS image must have the
// device's major version and an architecture no newer than the device, and
// be the newest that fits; a PTX image must be no newer than the device,
// the newest that fits, and chosen only when no SASS image fits. An error must
// mean that no image fits, and name the device and every target built.
func FuzzSelectImage(f *testing.F) {
	f.Fuzz(func(t *testing.T, list string, raw []byte, major, minor uint8) {
		var targets []arch.Target
		if ts, err := arch.ParseTargets(list); err == nil {
			for _, tg := range ts {
				back, err := arch.ParseTarget(tg.String())
				if err != nil || back != tg {
					t.Fatalf("target %#v prints as %q, which parses as %#v, %v", tg, tg.String(), back, err)
				}
			}
			if !slices.IsSortedFunc(ts, arch.Target.Compare) || len(slices.Compact(slices.Clone(ts))) != len(ts) {
				t.Fatalf("ParseTargets(%q) = %v: not sorted and free of duplicates", list, ts)
			}
			targets = ts
		}
		for i := 0; i+1 < len(raw); i += 2 {
			targets = append(targets, arch.Target{Arch: int(raw[i]) | int(raw[i+1]&3)<<8, PTX: raw[i+1]&0x80 != 0})
		}
		images := make([]Image, len(targets))
		for i, tg := range targets {
			images[i] = Image{Target: tg, Data: []byte(fmt.Sprint(i))}
		}
		maj, mnr := int(major%100), int(minor%10)
		dev := maj*10 + mnr
		sassFits := func(tg arch.Target) bool { return !tg.PTX && tg.Arch/10 == maj && tg.Arch <= dev }
		ptxFits := func(tg arch.Target) bool { return tg.PTX && tg.Arch <= dev }

		im, reason, err := SelectImage(images, maj, mnr)
		if err != nil {
			if slices.ContainsFunc(targets, sassFits) || slices.ContainsFunc(targets, ptxFits) {
				t.Fatalf("SelectImage(%v, %d, %d): %v; but an image fits", targets, maj, mnr, err)
			}
			msg := err.Error()
			if !strings.Contains(msg, fmt.Sprintf("compute capability %d.%d", maj, mnr)) {
				t.Errorf("error %q does not name compute capability %d.%d", msg, maj, mnr)
			}
			for _, tg := range targets {
				if !strings.Contains(msg, tg.String()) {
					t.Errorf("error %q does not name the built target %s", msg, tg)
				}
			}
			if len(targets) == 0 && !strings.Contains(msg, "built nothing") {
				t.Errorf("error %q does not say that nothing was built", msg)
			}
			return
		}
		if reason == "" {
			t.Errorf("SelectImage(%v, %d, %d) chose %s without a reason", targets, maj, mnr, im.Target)
		}
		var i int
		if _, scanErr := fmt.Sscan(string(im.Data), &i); scanErr != nil || i < 0 || i >= len(images) || images[i].Target != im.Target {
			t.Fatalf("SelectImage(%v, %d, %d) returned %s with data %q, which is none of the images", targets, maj, mnr, im.Target, im.Data)
		}
		switch {
		case !im.Target.PTX && !sassFits(im.Target):
			t.Fatalf("SelectImage(%v, %d, %d) chose SASS %s, which does not run on compute capability %d.%d", targets, maj, mnr, im.Target, maj, mnr)
		case im.Target.PTX && !ptxFits(im.Target):
			t.Fatalf("SelectImage(%v, %d, %d) chose PTX %s, newer than the device", targets, maj, mnr, im.Target)
		case im.Target.PTX && slices.ContainsFunc(targets, sassFits):
			t.Fatalf("SelectImage(%v, %d, %d) chose PTX %s over SASS that fits", targets, maj, mnr, im.Target)
		}
		fits := sassFits
		if im.Target.PTX {
			fits = ptxFits
		}
		for _, tg := range targets {
			if fits(tg) && tg.Arch > im.Target.Arch {
				t.Fatalf("SelectImage(%v, %d, %d) chose %s over the newer %s", targets, maj, mnr, im.Target, tg)
			}
		}
	})
}
