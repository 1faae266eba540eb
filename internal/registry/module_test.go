package registry

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func images(targets ...Target) []Image {
	ims := make([]Image, len(targets))
	for i, t := range targets {
		ims[i] = Image{Target: t, Data: []byte(t.String())}
	}
	return ims
}

func TestSelectImage(t *testing.T) {
	all := images(Target{Arch: 75}, Target{Arch: 80}, Target{Arch: 86}, Target{Arch: 89}, Target{Arch: 90}, Target{Arch: 90, PTX: true})
	tests := []struct {
		name         string
		images       []Image
		major, minor int
		want         Target
		reason       string
	}{
		{"exact sm_90", all, 9, 0, Target{Arch: 90}, "exact SASS"},
		{"exact sm_86", all, 8, 6, Target{Arch: 86}, "exact SASS"},
		{"sm_87 runs sm_86", all, 8, 7, Target{Arch: 86}, "compatible SASS sm_86"},
		{"sm_80 only for 8.9", images(Target{Arch: 80}, Target{Arch: 75}), 8, 9, Target{Arch: 80}, "compatible SASS sm_80"},
		{"newer major takes PTX", all, 10, 0, Target{Arch: 90, PTX: true}, "PTX compute_90"},
		{"12.0 takes PTX", all, 12, 0, Target{Arch: 90, PTX: true}, "compiled by the driver"},
		{"highest PTX not above device", images(Target{Arch: 75, PTX: true}, Target{Arch: 90, PTX: true}), 8, 0, Target{Arch: 75, PTX: true}, "PTX compute_75"},
		{"SASS of higher minor is not compatible", images(Target{Arch: 86}, Target{Arch: 80, PTX: true}), 8, 0, Target{Arch: 80, PTX: true}, "PTX"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			im, reason, err := SelectImage(tt.images, tt.major, tt.minor)
			require.NoError(t, err)
			require.Equal(t, tt.want, im.Target)
			require.Equal(t, tt.want.String(), string(im.Data))
			require.Contains(t, reason, tt.reason)
		})
	}
}

func TestSelectImageNone(t *testing.T) {
	_, _, err := SelectImage(images(Target{Arch: 90}, Target{Arch: 90, PTX: true}), 8, 6)
	require.Error(t, err)
	require.Contains(t, err.Error(), "compute capability 8.6")
	require.Contains(t, err.Error(), "built sm_90, compute_90")

	_, _, err = SelectImage(nil, 9, 0)
	require.ErrorContains(t, err, "built nothing")
}

func TestTargetString(t *testing.T) {
	require.Equal(t, "sm_75", Target{Arch: 75}.String())
	require.Equal(t, "compute_90", Target{Arch: 90, PTX: true}.String())
}

// TestImageVerify: an image whose data lost or changed a byte since the
// generator hashed it is refused with a message that says so and what to
// do; an image without a recorded hash (older glue) is not checked.
func TestImageVerify(t *testing.T) {
	data := []byte("\x7fELF a cubin, as far as this test is concerned")
	sum := sha256.Sum256(data)
	im := Image{Target: Target{Arch: 90}, Data: data, SHA256: hex.EncodeToString(sum[:])}
	require.NoError(t, im.Verify())

	truncated := im
	truncated.Data = data[:len(data)-1]
	err := truncated.Verify()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "sm_90 image is damaged")
	assert.Contains(t, err.Error(), "not loaded")

	flipped := im
	flipped.Data = append([]byte(nil), data...)
	flipped.Data[7] ^= 1
	require.Error(t, flipped.Verify())

	legacy := Image{Target: Target{Arch: 90}, Data: data[:3]}
	require.NoError(t, legacy.Verify(), "glue before version 5 records no hash")
}

// TestImageParts: an image of parts gives each part as an image of its own,
// checked against the part's hash, and refuses a part out of range, out of
// its data, or damaged.
func TestImageParts(t *testing.T) {
	a, b := []byte("\x7fELF the first instance"), []byte("\x7fELF the second")
	data := append(append(append([]byte(nil), a...), make([]byte, 7)...), b...)
	hash := func(p []byte) string { s := sha256.Sum256(p); return hex.EncodeToString(s[:]) }
	im := Image{Target: Target{Arch: 90}, Data: data, SHA256: hash(data), Parts: []Part{
		{Offset: 0, Size: len(a), SHA256: hash(a)}, {Offset: len(a) + 7, Size: len(b), SHA256: hash(b)}}}
	m := NewModule("example.com/parts", "hash", []Image{im})
	assert.Equal(t, 2, m.Parts())
	for k, want := range [][]byte{a, b} {
		p, err := m.PartImage(0, k)
		require.NoError(t, err)
		assert.Equal(t, want, p.Data)
		assert.Equal(t, len(want), cap(p.Data), "a part cannot grow into the next")
		assert.Empty(t, p.Parts)
	}
	_, err := m.PartImage(0, 2)
	assert.ErrorContains(t, err, "has parts 0 to 1, not 2")
	_, err = m.PartImage(0, -1)
	assert.Error(t, err)

	short := im
	short.Parts = []Part{{Offset: len(a) + 7, Size: len(b) + 1, SHA256: hash(b)}}
	_, err = short.Part(0)
	assert.ErrorContains(t, err, "part 0 should lie at")
	unhashed := im
	unhashed.Parts = []Part{{Offset: 0, Size: len(a)}}
	_, err = unhashed.Part(0)
	assert.ErrorContains(t, err, "is damaged", "glue of parts always records their hashes")
	flipped := im
	flipped.Data = append([]byte(nil), data...)
	flipped.Data[len(a)+8] ^= 1
	_, err = flipped.Part(1)
	assert.ErrorContains(t, err, "sm_90 image is damaged")
	_, err = flipped.Part(0)
	assert.NoError(t, err, "the other part is intact")
}

// TestModuleVerify: a module verifies the image SelectImage picks, once per
// process (the data is embedded and never changes, so a later change of the
// bytes is not seen), and refuses a damaged one; VerifyAhead checks the
// chosen image of every registered module, so that a load finds it done.
func TestModuleVerify(t *testing.T) {
	good := []byte("\x7fELF the sm_90 image")
	sum := sha256.Sum256(good)
	damaged := []byte("\x7fELF the sm_80 image")
	m := NewModule("example.com/verify", "hash", []Image{
		{Target: Target{Arch: 80}, Data: damaged, SHA256: hex.EncodeToString(sum[:])},
		{Target: Target{Arch: 90}, Data: good, SHA256: hex.EncodeToString(sum[:])},
	})
	i, reason, err := m.SelectImage(9, 0)
	require.NoError(t, err)
	assert.Equal(t, 1, i)
	assert.Equal(t, "exact SASS match sm_90", reason)

	VerifyAhead(9, 0) // verifies images[1], and every other registered module's choice
	good[5] ^= 1      // not seen: the result was computed once
	part, err := m.PartImage(i, 0)
	require.NoError(t, err)
	assert.Equal(t, good, part.Data, "an image without parts is its own part 0")
	good[5] ^= 1
	_, err = m.PartImage(i, 1)
	assert.ErrorContains(t, err, "no part 1")

	i, _, err = m.SelectImage(8, 6)
	require.NoError(t, err)
	assert.Equal(t, 0, i)
	_, err = m.PartImage(i, 0)
	require.ErrorContains(t, err, "sm_80 image is damaged")
	_, again := m.PartImage(i, 0)
	require.Equal(t, err, again, "the same result every time")

	_, _, err = m.SelectImage(7, 5)
	require.Error(t, err, "no image for sm_75")
}
