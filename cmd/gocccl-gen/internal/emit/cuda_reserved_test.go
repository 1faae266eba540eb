package emit

import (
	"strings"
	"testing"
)

func TestReservedC(t *testing.T) {
	for _, name := range []string{
		"", "int", "and_eq", "int32_t", "threadIdx", "std", "gocccl", "min", "sqrtf",
		"stdin", "stdout", "stderr", "CUDA_VERSION", "CUDART_VERSION", "CUB_VERSION",
		"INT8_MIN", "INT32_MAX", "UINT64_MAX", "INTPTR_MAX", "SIZE_MAX", "PTRDIFF_MAX", "INT64_C",
		"CHAR_BIT", "INT_MAX", "LLONG_MAX", "ULLONG_MAX",
		"GOCCCL_VERSION", "GOCCCL_DEVICE", "GOCCCL_GO_FN", "GOCCCL_ANYTHING", "gocccl_t0", "gocccl_p12", "goccclX",
		"a__b", "_X", "π", "1x", "x-y",
	} {
		if !reservedC(name) {
			t.Errorf("reservedC(%q) = false, want true", name)
		}
	}
	for _, name := range []string{"x", "x_1", "_x", "int_", "stdout_", "INT32_MAX_", "GOCCCL_VERSION_", "gocccl_t0_", "Gocccl", "myGOCCCL"} {
		if reservedC(name) {
			t.Errorf("reservedC(%q) = true, want false", name)
		}
	}
}

// TestreservedCSuffix checks the promise renaming relies on: a reserved
// name with "_" appended is not reserved.
func TestReservedCSuffix(t *testing.T) {
	names := []string{"gocccl_t0", "GOCCCL_X", "goccclY"}
	for w := range cReserved {
		names = append(names, w)
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_") {
			t.Errorf("reserved name %q ends in _", name)
		}
		if reservedC(name + "_") {
			t.Errorf("reservedC(%q) = true: %q cannot be renamed by suffix", name+"_", name)
		}
	}
}
