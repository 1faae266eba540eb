package model

import "strings"

// ReservedCName reports whether name cannot be printed as a local variable of
// generated CUDA C++ as it is: a C++ keyword or alternative token, a name the
// generated code or the CUDA headers use unqualified (the integer type names,
// CUDA's built-in variables, "gocccl", "std", "cub", common C macros), a name
// starting with "gocccl_" (the generator's own temporaries) or with the macro
// prefixes "GOCCCL", "CUB_" and "CUDA", a name reserved to the C++
// implementation (containing "__", or "_" followed by an upper-case letter),
// or a name that is not plain ASCII. The analyzer renames variables for which
// it returns true; the emitter rejects them.
func ReservedCName(name string) bool {
	if name == "" || cReserved[name] || strings.Contains(name, "__") {
		return true
	}
	if strings.HasPrefix(name, "gocccl_") || strings.HasPrefix(name, "GOCCCL") || strings.HasPrefix(name, "CUB_") || strings.HasPrefix(name, "CUDA") {
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
gocccl std cub main assert errno NULL EOF INFINITY NAN HUGE_VAL HUGE_VALF
stdin stdout stderr offsetof
`) {
		cReserved[w] = true
	}
}
