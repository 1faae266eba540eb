package cuda

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNulTerminated(t *testing.T) {
	ptx := []byte(".version 7.0\n")
	got := nulTerminated(ptx)
	assert.Equal(t, append([]byte(".version 7.0\n"), 0), got)
	assert.Equal(t, ".version 7.0\n", string(ptx), "the caller's slice is untouched")

	big := make([]byte, 4, 64)
	copy(big, "abcd")
	got = nulTerminated(big)
	got[0] = 'X'
	assert.Equal(t, "abcd", string(big), "a copy, even with spare capacity")

	for _, image := range [][]byte{
		[]byte(".version 7.0\n\x00"),
		[]byte("\x7fELF\x02\x01\x01"),
		{0x50, 0xed, 0x55, 0xba, 1, 0, 0x10, 0},
	} {
		assert.Equal(t, image, nulTerminated(image))
	}
}

func TestWithJITLog(t *testing.T) {
	base := &Error{Call: "cuModuleLoadDataEx", Code: ErrorInvalidPtx}
	errLog := make([]byte, 64)
	copy(errLog, "ptxas fatal : syntax error\n")
	infoLog := make([]byte, 64)

	err := withJITLog(base, errLog, infoLog)
	assert.ErrorIs(t, err, base)
	assert.Equal(t, base.Error()+"; JIT error log:\nptxas fatal : syntax error", err.Error())

	assert.Same(t, base, withJITLog(base, make([]byte, 8), make([]byte, 8)))
}
