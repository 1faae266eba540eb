package model

import (
	"regexp"
	"strings"
)

// ReservedCName reports whether name cannot be printed as a local variable of
// generated CUDA C++ as it is: a C++ keyword or alternative token; a name the
// generated code or the CUDA and gocccl headers use unqualified (the
// fixed-width integer types, CUDA's built-in variables, "std", "cub",
// "gocccl", common C macros); a temporary of the emitter ("gocccl_t0",
// "gocccl_p1"); a name reserved to the C++ implementation (containing "__",
// or "_" followed by an upper-case letter); or a name that is not plain
// ASCII. Appending "_" to a reserved name that is ASCII and holds no "__"
// always gives a name that is not reserved, so renaming by suffix works.
// The analyzer renames variables for which it returns true; the emitter
// rejects them.
func ReservedCName(name string) bool {
	if name == "" || cReserved[name] || emitterTemp.MatchString(name) || strings.Contains(name, "__") {
		return true
	}
	if len(name) > 1 && name[0] == '_' && name[1] >= 'A' && name[1] <= 'Z' {
		return true
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		ok := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9'
		if !ok {
			return true
		}
	}
	return false
}

// emitterTemp matches the names the emitter gives temporaries and unnamed
// parameters.
var emitterTemp = regexp.MustCompile(`^gocccl_[tp][0-9]+$`)

var cReserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`
alignas alignof and and_eq asm auto bitand bitor bool break case catch char
char8_t char16_t char32_t class compl concept const consteval constexpr
constinit const_cast continue co_await co_return co_yield decltype default
delete do double dynamic_cast else enum explicit export extern false float for
friend goto if inline int long mutable namespace new noexcept not not_eq
nullptr operator or or_eq private protected public register reinterpret_cast
requires return short signed sizeof static static_assert static_cast struct
switch template this thread_local throw true try typedef typeid typename union
unsigned using virtual void volatile wchar_t while xor xor_eq
final override import module restrict
int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t
size_t ptrdiff_t intptr_t uintptr_t
threadIdx blockIdx blockDim gridDim warpSize
gocccl std cub cuda thrust main assert errno NULL EOF INFINITY NAN HUGE_VAL
HUGE_VALF stdin stdout stderr offsetof
CUDA_VERSION CUDART_VERSION CUB_VERSION GOCCCL_VERSION GOCCCL_DEVICE GOCCCL_GO_FN
`) {
		cReserved[w] = true
	}
}
