package runtime

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

// TestAligned: an image part the driver reads in place when it lies on an
// 8-byte boundary, and a copy of it otherwise.
func TestAligned(t *testing.T) {
	buf := make([]byte, 64) // the allocator aligns it
	assert.Zero(t, uintptr(unsafe.Pointer(&buf[0]))%8)
	for i := range buf {
		buf[i] = byte(i)
	}
	in := buf[8:40]
	assert.Same(t, &in[0], &aligned(in)[0], "aligned data is not copied")
	odd := buf[3:40]
	got := aligned(odd)
	assert.Zero(t, uintptr(unsafe.Pointer(&got[0]))%8)
	assert.NotSame(t, &odd[0], &got[0])
	assert.Equal(t, odd, got)
	assert.Empty(t, aligned(nil))
}
