package emit

import (
	"strings"
)

// reservedC reports whether name cannot be printed as a name of generated
// CUDA C++ as it is:
//
//   - a C++ keyword or alternative token;
//   - a name the generated code or the CUDA and gocccl headers use
//     unqualified: the fixed-width integer types, CUDA's built-in variables,
//     "std", "cub", "gocccl", the math functions, and the macros of the C
//     library, <cstdint> and <climits> (INT32_MAX, SIZE_MAX, CHAR_BIT, …),
//     of CUDA (CUDA_VERSION, …) and of the standard streams;
//   - a generator name: one that starts with "gocccl" or "GOCCCL" and does
//     not end in "_" (the emitter's temporaries "gocccl_t0" and parameters
//     "gocccl_p1", the headers' macros "GOCCCL_…");
//   - a name reserved to the C++ implementation (containing "__", or "_"
//     followed by an upper-case letter);
//   - a name that may be a macro of the C, CUDA or CUB headers the generated
//     code includes (which define some 2800 of them, differing between
//     toolchains): every name of two or more characters made of upper-case
//     letters, digits and underscores (M_PI, RAND_MAX, BUFSIZ, EDOM), every
//     name starting with "cuda", "Cub", "M_", "L_", "P_" or "pthread_", and
//     the few other lower-case macros they define (errno, alloca, stdin, …),
//     unless it ends in "_";
//   - a name that is not plain ASCII.
//
// Appending "_" to a reserved name that is plain ASCII, holds no "__" and
// does not start with "_" and an upper-case letter always gives a name that
// is not reserved, so renaming by suffix works.
//
// The names table (cuda_names.go) renames every variable, operator, struct type
// and field for which it returns true.
func reservedC(name string) bool {
	if name == "" || cReserved[name] || strings.Contains(name, "__") || generatorName(name) {
		return true
	}
	if len(name) > 1 && name[0] == '_' && name[1] >= 'A' && name[1] <= 'Z' {
		return true
	}
	if macroLike(name) {
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

// macroLike reports whether name has the shape of the headers' macros (see
// reservedC). Names ending in "_" never do, so that renaming by suffix
// ends.
func macroLike(name string) bool {
	if strings.HasSuffix(name, "_") {
		return false
	}
	for _, p := range macroPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	if len(name) < 2 {
		return false
	}
	letter := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'A' && c <= 'Z':
			letter = true
		case c >= '0' && c <= '9' || c == '_':
		default:
			return false
		}
	}
	return letter
}

// macroPrefixes start the mixed-case macros of the CUDA runtime, CUB and
// the C library (cudaStreamDefault, CubDebug, M_PIf, L_tmpnam, P_tmpdir,
// pthread_cleanup_push).
var macroPrefixes = []string{"cuda", "Cub", "M_", "L_", "P_", "pthread_"}

// generatorName reports whether name is in the generator's part of the name
// space: it starts with "gocccl" or "GOCCCL" and does not end in "_" (the
// generator never gives a name a trailing underscore).
func generatorName(name string) bool {
	return (strings.HasPrefix(name, "gocccl") || strings.HasPrefix(name, "GOCCCL")) && !strings.HasSuffix(name, "_")
}

// cReserved holds the names reservedC rejects one by one.
var cReserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(cKeywords + cHeaderNames + cMathNames + cLimitMacros) {
		cReserved[w] = true
	}
}

// cKeywords are the keywords and alternative tokens of C++ up to C++20, and
// identifiers with a special meaning in some contexts.
const cKeywords = `
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
`

// cHeaderNames are types, variables, namespaces and macros that generated
// code or the headers it includes use unqualified.
const cHeaderNames = `
int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t
size_t ptrdiff_t intptr_t uintptr_t intmax_t uintmax_t
threadIdx blockIdx blockDim gridDim warpSize
gocccl std cub cuda thrust main assert errno NULL EOF INFINITY NAN HUGE_VAL
HUGE_VALF stdin stdout stderr offsetof alloca assert_perror issubnormal
math_errhandling sched_priority strdupa strndupa
be16toh be32toh be64toh le16toh le32toh le64toh
htobe16 htobe32 htobe64 htole16 htole32 htole64
CUDA_VERSION CUDART_VERSION CUB_VERSION
`

// cMathNames are math functions generated code may call unqualified.
const cMathNames = `
min max abs fabs fabsf fmin fmax fminf fmaxf sqrt sqrtf isnan isinf signbit
copysign floor ceil trunc round fma fmaf exp log pow sin cos tan
`

// cLimitMacros are the macros of <cstdint> and <climits>.
const cLimitMacros = `
INT8_MIN INT16_MIN INT32_MIN INT64_MIN INT8_MAX INT16_MAX INT32_MAX INT64_MAX
UINT8_MAX UINT16_MAX UINT32_MAX UINT64_MAX
INT_LEAST8_MIN INT_LEAST16_MIN INT_LEAST32_MIN INT_LEAST64_MIN
INT_LEAST8_MAX INT_LEAST16_MAX INT_LEAST32_MAX INT_LEAST64_MAX
UINT_LEAST8_MAX UINT_LEAST16_MAX UINT_LEAST32_MAX UINT_LEAST64_MAX
INT_FAST8_MIN INT_FAST16_MIN INT_FAST32_MIN INT_FAST64_MIN
INT_FAST8_MAX INT_FAST16_MAX INT_FAST32_MAX INT_FAST64_MAX
UINT_FAST8_MAX UINT_FAST16_MAX UINT_FAST32_MAX UINT_FAST64_MAX
INTPTR_MIN INTPTR_MAX UINTPTR_MAX INTMAX_MIN INTMAX_MAX UINTMAX_MAX
PTRDIFF_MIN PTRDIFF_MAX SIZE_MAX SIG_ATOMIC_MIN SIG_ATOMIC_MAX
WCHAR_MIN WCHAR_MAX WINT_MIN WINT_MAX
INT8_C INT16_C INT32_C INT64_C UINT8_C UINT16_C UINT32_C UINT64_C
INTMAX_C UINTMAX_C
CHAR_BIT MB_LEN_MAX SCHAR_MIN SCHAR_MAX UCHAR_MAX CHAR_MIN CHAR_MAX
SHRT_MIN SHRT_MAX USHRT_MAX INT_MIN INT_MAX UINT_MAX LONG_MIN LONG_MAX
ULONG_MAX LLONG_MIN LLONG_MAX ULLONG_MAX
`
