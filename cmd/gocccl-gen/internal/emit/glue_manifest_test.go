package emit

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestInputHashIncludedHeaders: the input hash covers the headers a source
// includes, directly and through others, and no other header.
func TestInputHashIncludedHeaders(t *testing.T) {
	cu := []byte("#include <gocccl/gosem.cuh>\n  #  include \"gocccl/reduce.cuh\"\nint x;\n")
	headers := []File{
		{Name: "include/gocccl/gosem.cuh", Data: []byte("#include <gocccl/gomath.cuh>\n")},
		{Name: "include/gocccl/gomath.cuh", Data: []byte("// math\n")},
		{Name: "include/gocccl/reduce.cuh", Data: []byte("#include <gocccl/gosem.cuh>\n#include <cub/cub.cuh>\n")},
		{Name: "include/gocccl/radix_sort.cuh", Data: []byte("// radix\n")},
	}
	var names []string
	for _, f := range includedHeaders(cu, headers) {
		names = append(names, f.Name)
	}
	assert.Equal(t, []string{"include/gocccl/gosem.cuh", "include/gocccl/reduce.cuh", "include/gocccl/gomath.cuh"}, names)

	base := InputHash(cu, headers, nil, nil)
	edit := func(i int) string {
		hs := append([]File(nil), headers...)
		hs[i].Data = append(append([]byte(nil), hs[i].Data...), "// edited\n"...)
		return InputHash(cu, hs, nil, nil)
	}
	assert.NotEqual(t, base, edit(1), "a header included through another counts")
	assert.NotEqual(t, base, edit(2), "a header included directly counts")
	assert.Equal(t, base, edit(3), "a header the source does not reach does not count")
}
