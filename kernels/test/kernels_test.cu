// kernels_test.cu: standalone correctness test of the gocccl kernel headers
// (reduce.cuh, transform.cuh, adjacent_difference.cuh, segmented_sort.cuh,
// merge.cuh, merge_sort.cuh), no Go involved.
//
// The templates are instantiated through extern "C" __global__ entry points
// exactly as generated code (gocccl_gen.cu) does, and launched with the host
// dispatch the Go runtime uses:
//   reduce:    n <= tile  -> <sym>_final<<<1>>>(d_in, n, d_out, init)
//              otherwise  -> <sym>_partial<<<G>>>(d_in, n, d_partials),
//                            G = min(num_tiles, SMs * occupancy * k),
//                            then <sym>_final<<<1>>>(d_partials, G, d_out, init)
//   transform: <sym><<<ceil(n / tile)>>>(...), nothing for n == 0.
//   adjacent difference: <sym>_left / _right<<<ceil(n / tile)>>>(d_in,
//              d_out, n), on pointers (aligned: 16-byte chunks; offset by
//              one item: one item per access) and on an iterator, at sizes
//              around a warp's and a block's share; n == 0 launches one
//              block, which must write nothing. An operator that counts
//              calls on items that are not neighbours checks that the
//              copied end item and items past n never reach it.
//   segmented sort: runtime/segmented_sort_gpu.go's launch sequence, with a
//              small Onesweep PORTION_BITS (a portion of 1 to 15 tiles) so
//              that segments of a few portions test the portion carries;
//              and the one-launch fallback (<sym>_each, grid S) on the same
//              layouts and keys, and on keys with one random byte (low,
//              middle, high: its passes skip all but one, or run the last
//              when all keys are alike).
//   merge:     <sym>_tiles<<<tiles>>> with null splits (the blocks search
//              their own: runtime/merge.go's dispatch for one wave of tiles)
//              and after <sym>_partition (its dispatch above a wave), both at
//              every size, against std::merge bit for bit.
//   merge sort: runtime/mergesort.go's dispatch: up to one tile the single
//              kernel (at the edges of its smaller tiles too), above it the
//              block sort and passes, each pass with its partition kernel
//              and with null partitions (self-searched splits), against
//              std::stable_sort bit for bit.
// Each reduction is also run with G = 1, G = num_tiles and "final only"
// (one block over the whole input). Results are checked against a CPU
// reference; outputs (and partials) are poisoned with 0xAB before every run,
// and the bytes around every output must still be 0xAB afterwards.
//
// Usage: kernels_test [--quick] [--no-large] [--only PART]
//   --quick     sizes up to 10^6+3 only (for compute-sanitizer runs)
//   --no-large  skip the n > 2^31 cases (need about 5 GiB of device memory)
//   --only PART run one part: reduce, transform, adjacent, segsort (the
//               segmented sorts: radix_sort.cuh's ranking, Onesweep and single
//               tile inside), merge (Merge and the merge sorts) or large
// Exit status: 0 all checks passed, 1 a check failed, 2 a CUDA call failed.

#include <gocccl/adjacent_difference.cuh>
#include <gocccl/iterator.cuh>
#include <gocccl/merge.cuh>
#include <gocccl/merge_sort.cuh>
#include <gocccl/reduce.cuh>
#include <gocccl/segmented_sort.cuh>
#include <gocccl/transform.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

// ---------------------------------------------------------------------------
// CUDA error checking: any failing CUDA call ends the program (exit 2); a
// sticky error (e.g. an illegal address) would poison every later check.

static void check_cuda(cudaError_t err, const char* what, const char* file, int line)
{
  if (err != cudaSuccess)
  {
    std::fprintf(stderr, "%s:%d: CUDA error %s (%s) in %s\n", file, line, cudaGetErrorName(err),
                 cudaGetErrorString(err), what);
    std::exit(2);
  }
}
#define CK(call) check_cuda((call), #call, __FILE__, __LINE__)

// ---------------------------------------------------------------------------
// Operators (what gocccl-gen emits from //gocccl:op functions). Host-callable
// too, so the CPU reference uses the very same code.

struct SumI32 // Go int32 '+': wraps
{
  __host__ __device__ int operator()(const int& a, const int& b) const
  {
    return static_cast<int>(static_cast<unsigned>(a) + static_cast<unsigned>(b));
  }
};
struct SumU64
{
  __host__ __device__ unsigned long long operator()(const unsigned long long& a, const unsigned long long& b) const
  {
    return a + b;
  }
};
struct SumF32
{
  __host__ __device__ float operator()(const float& a, const float& b) const { return a + b; }
};
struct MaxF64
{
  __host__ __device__ double operator()(const double& a, const double& b) const { return a < b ? b : a; }
};
struct MinI8
{
  __host__ __device__ signed char operator()(const signed char& a, const signed char& b) const
  {
    return b < a ? b : a;
  }
};
struct XorU8
{
  __host__ __device__ unsigned char operator()(const unsigned char& a, const unsigned char& b) const
  {
    return static_cast<unsigned char>(a ^ b);
  }
};
// Non-trivial: max of absolute values (inputs never INT_MIN).
struct MaxAbsI32
{
  __host__ __device__ int operator()(const int& a, const int& b) const
  {
    const int x = a < 0 ? -a : a;
    const int y = b < 0 ? -b : b;
    return x < y ? y : x;
  }
};
// Struct items: 8 bytes with 4-byte alignment (chunked as 2 items per 16 B).
struct MinMax
{
  int lo;
  int hi;
};
struct MinMaxOp
{
  __host__ __device__ MinMax operator()(const MinMax& a, const MinMax& b) const
  {
    MinMax r;
    r.lo = b.lo < a.lo ? b.lo : a.lo;
    r.hi = a.hi < b.hi ? b.hi : a.hi;
    return r;
  }
};
// Struct items: 12 bytes (no access size: one item per access).
struct Vec3
{
  int x;
  int y;
  int z;
};
struct SumVec3
{
  __host__ __device__ Vec3 operator()(const Vec3& a, const Vec3& b) const
  {
    SumI32 s;
    return Vec3{s(a.x, b.x), s(a.y, b.y), s(a.z, b.z)};
  }
};

// Transform operators.
struct I8ToF32
{
  __host__ __device__ float operator()(const signed char& x) const { return x * 0.5f + 0.25f; }
};
struct I32ToI64
{
  __host__ __device__ long long operator()(const int& x) const { return static_cast<long long>(x) * 3 - 1; }
};
struct I32Affine // used in place
{
  __host__ __device__ int operator()(const int& x) const
  {
    return static_cast<int>(static_cast<unsigned>(x) * 2u + 1u);
  }
};
struct I32ToVec3
{
  __host__ __device__ Vec3 operator()(const int& x) const { return Vec3{x, x ^ 0x55, -x}; }
};
struct I8Inc
{
  __host__ __device__ signed char operator()(const signed char& x) const
  {
    return static_cast<signed char>(static_cast<unsigned char>(x) + 1u);
  }
};
struct F32MulI16ToF64 // exact in double: 24-bit * 16-bit mantissas
{
  __host__ __device__ double operator()(const float& a, const short& b) const
  {
    return static_cast<double>(a) * static_cast<double>(b) + 1.0;
  }
};
struct U8MulU8ToU16
{
  __host__ __device__ unsigned short operator()(const unsigned char& a, const unsigned char& b) const
  {
    return static_cast<unsigned short>(a * b + 7);
  }
};
struct I64SubF32ToF32
{
  __host__ __device__ float operator()(const long long& a, const float& b) const
  {
    return static_cast<float>(a & 0xffff) - b;
  }
};

// Adjacent difference operators: none is commutative, so a swapped argument
// order shows. Integers wrap, as Go's do.
struct Sub
{
  template <typename T>
  __host__ __device__ T operator()(const T& a, const T& b) const
  {
    if constexpr (std::is_integral<T>::value)
    {
      using U = typename std::make_unsigned<T>::type;
      return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
    }
    else
    {
      return a - b;
    }
  }
};
struct MinMaxSub
{
  __host__ __device__ MinMax operator()(const MinMax& a, const MinMax& b) const
  {
    return MinMax{static_cast<int>(static_cast<unsigned>(a.lo) - static_cast<unsigned>(b.lo)), a.hi ^ (b.hi >> 3)};
  }
};
struct Vec3Sub
{
  __host__ __device__ Vec3 operator()(const Vec3& a, const Vec3& b) const
  {
    return Vec3{static_cast<int>(static_cast<unsigned>(a.x) - static_cast<unsigned>(b.x)), a.y ^ (b.y >> 1),
                static_cast<int>(static_cast<unsigned>(a.z) * 3u - static_cast<unsigned>(b.z))};
  }
};
// Inputs in[i] = i * kAdjStep + 12345 (wrapping), so in[i] - in[i-1] ==
// kAdjStep: StepSub counts every call on two items that are not neighbours
// (a copied end item, an item past n, a wrong exchange) in g_adj_bad_calls.
constexpr unsigned kAdjStep = 0x9E3779B9u;
__device__ unsigned long long g_adj_bad_calls;
struct StepSub
{
  __host__ __device__ unsigned operator()(unsigned a, unsigned b) const
  {
#if defined(__CUDA_ARCH__)
    if (a - b != kAdjStep && b - a != kAdjStep) atomicAdd(&g_adj_bad_calls, 1ull);
#endif
    return a - b;
  }
};
struct Weyl
{
  __host__ __device__ unsigned operator()(unsigned i) const { return i * kAdjStep + 12345u; }
};
using WeylIt = gocccl::it::Transform<unsigned, gocccl::it::Counting<unsigned>, Weyl>;

// ---------------------------------------------------------------------------
// Entry points, named and shaped as gocccl-gen names and shapes them.

#define GOCCCL_TEST_REDUCE(NAME, BT, IPT, T, OP)                                                              \
  extern "C" __global__ void __launch_bounds__(BT) NAME##_partial(const T* d_in, long long n, T* d_partials)  \
  {                                                                                                           \
    gocccl::reduce_partial<BT, IPT, T, OP>(d_in, n, d_partials);                                             \
  }                                                                                                           \
  extern "C" __global__ void __launch_bounds__(BT) NAME##_final(const T* d_in, long long n, T* d_out, T init) \
  {                                                                                                           \
    gocccl::reduce_final<BT, IPT, T, OP>(d_in, n, d_out, init);                                              \
  }                                                                                                           \
  extern "C" __global__ void __launch_bounds__(BT)                                                            \
    NAME##_sweep(const T* d_in, long long n, T* d_out, T init, void* d_scratch)                               \
  {                                                                                                           \
    gocccl::reduce_single_pass<BT, IPT, T, OP>(d_in, n, d_out, init, d_scratch);                             \
  }

// Recommended policies (see reduce.cuh), plus odd ones for coverage.
GOCCCL_TEST_REDUCE(test_reduce_sum_i32, 256, 16, int, SumI32)
GOCCCL_TEST_REDUCE(test_reduce_sum_i32_odd, 96, 7, int, SumI32) // 3 warps, 7 items: no chunking
GOCCCL_TEST_REDUCE(test_reduce_sum_u64, 256, 8, unsigned long long, SumU64)
GOCCCL_TEST_REDUCE(test_reduce_sum_f32, 256, 16, float, SumF32)
GOCCCL_TEST_REDUCE(test_reduce_max_f64, 256, 8, double, MaxF64)
GOCCCL_TEST_REDUCE(test_reduce_min_i8, 256, 32, signed char, MinI8)
GOCCCL_TEST_REDUCE(test_reduce_xor_u8, 256, 32, unsigned char, XorU8)
GOCCCL_TEST_REDUCE(test_reduce_maxabs_i32, 256, 16, int, MaxAbsI32)
GOCCCL_TEST_REDUCE(test_reduce_minmax_s8, 256, 8, MinMax, MinMaxOp)
GOCCCL_TEST_REDUCE(test_reduce_sum_vec3, 256, 2, Vec3, SumVec3)

#define GOCCCL_TEST_TRANSFORM(NAME, BT, IPT, IN, OUT, OP)                                   \
  extern "C" __global__ void __launch_bounds__(BT) NAME(const IN* d_in, OUT* d_out, long long n) \
  {                                                                                          \
    gocccl::transform<BT, IPT, IN, OUT, OP>(d_in, d_out, n);                                \
  }
#define GOCCCL_TEST_TRANSFORM2(NAME, BT, IPT, A, B, OUT, OP)                                              \
  extern "C" __global__ void __launch_bounds__(BT) NAME(const A* d_a, const B* d_b, OUT* d_out, long long n) \
  {                                                                                                        \
    gocccl::transform2<BT, IPT, A, B, OUT, OP>(d_a, d_b, d_out, n);                                       \
  }

GOCCCL_TEST_TRANSFORM(test_transform_i8_f32, 256, 8, signed char, float, I8ToF32)
GOCCCL_TEST_TRANSFORM(test_transform_i32_i64, 256, 4, int, long long, I32ToI64)
GOCCCL_TEST_TRANSFORM(test_transform_i32_i32, 256, 8, int, int, I32Affine)
GOCCCL_TEST_TRANSFORM(test_transform_i32_vec3, 256, 1, int, Vec3, I32ToVec3)
GOCCCL_TEST_TRANSFORM(test_transform_i8_i8, 256, 32, signed char, signed char, I8Inc)
GOCCCL_TEST_TRANSFORM(test_transform_i8_f32_odd, 64, 3, signed char, float, I8ToF32)
GOCCCL_TEST_TRANSFORM2(test_transform2_f32_i16_f64, 256, 4, float, short, double, F32MulI16ToF64)
GOCCCL_TEST_TRANSFORM2(test_transform2_u8_u8_u16, 256, 16, unsigned char, unsigned char, unsigned short, U8MulU8ToU16)
GOCCCL_TEST_TRANSFORM2(test_transform2_i64_f32_f32, 256, 4, long long, float, float, I64SubF32ToF32)

#define GOCCCL_TEST_ADJACENT(NAME, BT, IPT, IN, T, OP)                                         \
  extern "C" __global__ void __launch_bounds__(BT) NAME##_left(IN d_in, T* d_out, long long n)  \
  {                                                                                             \
    gocccl::adjacent_difference_left<BT, IPT, T, OP>(d_in, d_out, n);                          \
  }                                                                                             \
  extern "C" __global__ void __launch_bounds__(BT) NAME##_right(IN d_in, T* d_out, long long n) \
  {                                                                                             \
    gocccl::adjacent_difference_right<BT, IPT, T, OP>(d_in, d_out, n);                         \
  }

// The runtime's policy, arch.MemBound(size, 16): 256 threads, max(1, 16 /
// size) items, one 16-byte chunk a lane (the _p kernels); the same types at
// 32 bytes a thread (two chunks a lane, the policy before 2026-12-04's
// sixth session); and 3 warps of 7 items (one item per access).
GOCCCL_TEST_ADJACENT(test_adj_u32_p, 256, 4, const unsigned*, unsigned, Sub)
GOCCCL_TEST_ADJACENT(test_adj_f32_p, 256, 4, const float*, float, Sub)
GOCCCL_TEST_ADJACENT(test_adj_u64_p, 256, 2, const unsigned long long*, unsigned long long, Sub)
GOCCCL_TEST_ADJACENT(test_adj_f64_p, 256, 2, const double*, double, Sub)
GOCCCL_TEST_ADJACENT(test_adj_i8_p, 256, 16, const signed char*, signed char, Sub)
GOCCCL_TEST_ADJACENT(test_adj_minmax_p, 256, 2, const MinMax*, MinMax, MinMaxSub)
GOCCCL_TEST_ADJACENT(test_adj_vec3_p, 256, 1, const Vec3*, Vec3, Vec3Sub)
GOCCCL_TEST_ADJACENT(test_adj_u32, 256, 8, const unsigned*, unsigned, Sub)
GOCCCL_TEST_ADJACENT(test_adj_f32, 256, 8, const float*, float, Sub)
GOCCCL_TEST_ADJACENT(test_adj_u64, 256, 4, const unsigned long long*, unsigned long long, Sub)
GOCCCL_TEST_ADJACENT(test_adj_f64, 256, 4, const double*, double, Sub)
GOCCCL_TEST_ADJACENT(test_adj_i8, 256, 32, const signed char*, signed char, Sub)
GOCCCL_TEST_ADJACENT(test_adj_minmax, 256, 4, const MinMax*, MinMax, MinMaxSub)
GOCCCL_TEST_ADJACENT(test_adj_vec3, 256, 2, const Vec3*, Vec3, Vec3Sub)
GOCCCL_TEST_ADJACENT(test_adj_u32_96x7, 96, 7, const unsigned*, unsigned, Sub)
GOCCCL_TEST_ADJACENT(test_adj_step, 256, 8, const unsigned*, unsigned, StepSub)
GOCCCL_TEST_ADJACENT(test_adj_step_it, 256, 8, WeylIt, unsigned, StepSub)

// Segmented sort (segmented_sort.cuh): the kernels of one instance, with a
// PORTION_BITS of the test's choosing so that a few thousand items span many
// Onesweep portions. Every entry point of an instance takes the pairs'
// pointers; the keys-only ones ignore the values (V is a placeholder there).
#define GOCCCL_TEST_SEGSORT_LISTS \
  void *d_lists, long long num_segments, long long cap_medium, long long cap_big, long long cap_large
#define GOCCCL_TEST_SEGSORT_LIST_ARGS d_lists, num_segments, cap_medium, cap_big, cap_large
#define GOCCCL_TEST_SEGSORT_DATA(K, V) \
  const K *d_keys_in, K *d_keys_out, const V *d_values_in, V *d_values_out, const int64_t *d_begin, \
    const int64_t *d_end, long long n
#define GOCCCL_TEST_SEGSORT_COMMON(NAME, BT, IPT, K, V, PB)                                                        \
  extern "C" __global__ void __launch_bounds__(BT) NAME##_init(void* d_scratch, long long words)                  \
  {                                                                                                                 \
    gocccl::radix_sort_init<BT, IPT, K>(d_scratch, words);                                                         \
  }                                                                                                                 \
  extern "C" __global__ void __launch_bounds__(BT)                                                                  \
    NAME##_plan(const int64_t* d_begin, const int64_t* d_end, long long n, GOCCCL_TEST_SEGSORT_LISTS)               \
  {                                                                                                                 \
    gocccl::segmented_sort_plan<BT, IPT, K, gocccl::detail::radix::NoValues, PB>(d_begin, d_end, n,               \
                                                                                  GOCCCL_TEST_SEGSORT_LIST_ARGS);  \
  }                                                                                                                 \
  extern "C" __global__ void __launch_bounds__(BT)                                                                  \
    NAME##_histogram(const K* d_keys_in, const int64_t* d_begin, const int64_t* d_end, long long n,                \
                     GOCCCL_TEST_SEGSORT_LISTS, void* d_bins, bool descending)                                      \
  {                                                                                                                 \
    gocccl::segmented_sort_histogram<BT, IPT, K, gocccl::detail::radix::NoValues, PB>(                            \
      d_keys_in, d_begin, d_end, n, GOCCCL_TEST_SEGSORT_LIST_ARGS, d_bins, descending);                            \
  }
#define GOCCCL_TEST_SEGSORT_KEYS(NAME, BT, IPT, K, PB)                                                              \
  GOCCCL_TEST_SEGSORT_COMMON(NAME, BT, IPT, K, unsigned, PB)                                                        \
  extern "C" __global__ void __launch_bounds__(BT)                                                                  \
    NAME##_classify(GOCCCL_TEST_SEGSORT_DATA(K, unsigned), GOCCCL_TEST_SEGSORT_LISTS)                               \
  {                                                                                                                 \
    gocccl::segmented_sort_keys_classify<BT, IPT, K, PB>(d_keys_in, d_keys_out, d_begin, d_end, n,                 \
                                                         GOCCCL_TEST_SEGSORT_LIST_ARGS);                            \
  }                                                                                                                 \
  extern "C" __global__ void __launch_bounds__(BT)                                                                  \
    NAME##_small(GOCCCL_TEST_SEGSORT_DATA(K, unsigned), GOCCCL_TEST_SEGSORT_LISTS, bool descending)                 \
  {                                                                                                                 \
    gocccl::segmented_sort_keys_small<BT, IPT, K>(d_keys_in, d_keys_out, d_begin, d_end, n,                        \
                                                  GOCCCL_TEST_SEGSORT_LIST_ARGS, descending);                      \
  }                                                                                                                 \
  extern "C" __global__ void __launch_bounds__(BT)                                                                  \
    NAME##_medium(GOCCCL_TEST_SEGSORT_DATA(K, unsigned), GOCCCL_TEST_SEGSORT_LISTS, bool descending)                \
  {                                                                                                                 \
    gocccl::segmented_sort_keys_medium<BT, IPT, K>(d_keys_in, d_keys_out, d_begin, d_end, n,                       \
                                                   GOCCCL_TEST_SEGSORT_LIST_ARGS, descending);                     \
  }                                                                                                                 \
  extern "C" __global__ void __launch_bounds__(BT)                                                                  \
    NAME##_big(GOCCCL_TEST_SEGSORT_DATA(K, unsigned), GOCCCL_TEST_SEGSORT_LISTS, bool descending)                   \
  {                                                                                                                 \
    gocccl::segmented_sort_keys_big<BT, IPT, K>(d_keys_in, d_keys_out, d_begin, d_end, n,                          \
                                                GOCCCL_TEST_SEGSORT_LIST_ARGS, descending);                        \
  }                                                                                                                 \
  extern "C" __global__ void __launch_bounds__(BT)                                                                  \
    NAME##_onesweep(GOCCCL_TEST_SEGSORT_DATA(K, unsigned), GOCCCL_TEST_SEGSORT_LISTS, void* d_bins,                 \
                    void* d_lookback, long long portions, long long launch, bool descending)                        \
  {                                                                                                                 \
    gocccl::segmented_sort_keys_onesweep<BT, IPT, K, PB>(d_keys_in, d_keys_out, d_begin, d_end, n,                 \
                                                         GOCCCL_TEST_SEGSORT_LIST_ARGS, d_bins, d_lookback,         \
                                                         portions, launch, descending);                             \
  }                                                                                                                 \
  extern "C" __global__ void __launch_bounds__(BT)                                                                  \
    NAME##_each(GOCCCL_TEST_SEGSORT_DATA(K, unsigned), long long num_segments, void* d_keys_alt, void* d_values_alt, \
                bool descending)                                                                                    \
  {                                                                                                                 \
    gocccl::segmented_sort_keys_each<BT, IPT, K>(d_keys_in, d_keys_out, d_begin, d_end, n, num_segments,           \
                                                 d_keys_alt, descending);                                           \
  }
#define GOCCCL_TEST_SEGSORT_PAIRS(NAME, BT, IPT, K, V, PB)                                                          \
  GOCCCL_TEST_SEGSORT_COMMON(NAME, BT, IPT, K, V, PB)                                                               \
  extern "C" __global__ void __launch_bounds__(BT)                                                                  \
    NAME##_classify(GOCCCL_TEST_SEGSORT_DATA(K, V), GOCCCL_TEST_SEGSORT_LISTS)                                      \
  {                                                                                                                 \
    gocccl::segmented_sort_pairs_classify<BT, IPT, K, V, PB>(d_keys_in, d_keys_out, d_values_in, d_values_out,     \
                                                             d_begin, d_end, n, GOCCCL_TEST_SEGSORT_LIST_ARGS);     \
  }                                                                                                                 \
  extern "C" __global__ void __launch_bounds__(BT)                                                                  \
    NAME##_small(GOCCCL_TEST_SEGSORT_DATA(K, V), GOCCCL_TEST_SEGSORT_LISTS, bool descending)                        \
  {                                                                                                                 \
    gocccl::segmented_sort_pairs_small<BT, IPT, K, V>(d_keys_in, d_keys_out, d_values_in, d_values_out, d_begin,    \
                                                      d_end, n, GOCCCL_TEST_SEGSORT_LIST_ARGS, descending);        \
  }                                                                                                                 \
  extern "C" __global__ void __launch_bounds__(BT)                                                                  \
    NAME##_medium(GOCCCL_TEST_SEGSORT_DATA(K, V), GOCCCL_TEST_SEGSORT_LISTS, bool descending)                       \
  {                                                                                                                 \
    gocccl::segmented_sort_pairs_medium<BT, IPT, K, V>(d_keys_in, d_keys_out, d_values_in, d_values_out, d_begin,   \
                                                       d_end, n, GOCCCL_TEST_SEGSORT_LIST_ARGS, descending);       \
  }                                                                                                                 \
  extern "C" __global__ void __launch_bounds__(BT)                                                                  \
    NAME##_big(GOCCCL_TEST_SEGSORT_DATA(K, V), GOCCCL_TEST_SEGSORT_LISTS, bool descending)                          \
  {                                                                                                                 \
    gocccl::segmented_sort_pairs_big<BT, IPT, K, V>(d_keys_in, d_keys_out, d_values_in, d_values_out, d_begin,      \
                                                    d_end, n, GOCCCL_TEST_SEGSORT_LIST_ARGS, descending);          \
  }                                                                                                                 \
  extern "C" __global__ void __launch_bounds__(BT)                                                                  \
    NAME##_onesweep(GOCCCL_TEST_SEGSORT_DATA(K, V), GOCCCL_TEST_SEGSORT_LISTS, void* d_bins, void* d_lookback,      \
                    long long portions, long long launch, bool descending)                                          \
  {                                                                                                                 \
    gocccl::segmented_sort_pairs_onesweep<BT, IPT, K, V, PB>(d_keys_in, d_keys_out, d_values_in, d_values_out,     \
                                                             d_begin, d_end, n, GOCCCL_TEST_SEGSORT_LIST_ARGS,      \
                                                             d_bins, d_lookback, portions, launch, descending);     \
  }                                                                                                                 \
  extern "C" __global__ void __launch_bounds__(BT)                                                                  \
    NAME##_each(GOCCCL_TEST_SEGSORT_DATA(K, V), long long num_segments, void* d_keys_alt, void* d_values_alt,       \
                bool descending)                                                                                    \
  {                                                                                                                 \
    gocccl::segmented_sort_pairs_each<BT, IPT, K, V>(d_keys_in, d_keys_out, d_values_in, d_values_out, d_begin,     \
                                                     d_end, n, num_segments, d_keys_alt, d_values_alt, descending); \
  }

// PORTION_BITS 12 with a 2048-item tile: a portion is one tile (every tile
// hands a carry on); 14: 7 tiles (15 with 1024); 13 with 384 x 5: 4 tiles;
// 29: the default, one portion.
GOCCCL_TEST_SEGSORT_KEYS(test_segsort_keys_u8, 256, 8, unsigned char, 14)
GOCCCL_TEST_SEGSORT_KEYS(test_segsort_keys_i16, 256, 8, short, 12)
GOCCCL_TEST_SEGSORT_KEYS(test_segsort_keys_i32, 256, 4, int, 14)
GOCCCL_TEST_SEGSORT_KEYS(test_segsort_keys_f32, 384, 5, float, 13)
GOCCCL_TEST_SEGSORT_KEYS(test_segsort_keys_i64, 256, 4, long long, 14)
GOCCCL_TEST_SEGSORT_KEYS(test_segsort_keys_f64, 256, 8, double, 12)
GOCCCL_TEST_SEGSORT_KEYS(test_segsort_keys_u32_default, 256, 8, unsigned, 29)
GOCCCL_TEST_SEGSORT_PAIRS(test_segsort_pairs_i8_u32, 256, 8, signed char, unsigned, 14)
GOCCCL_TEST_SEGSORT_PAIRS(test_segsort_pairs_u16_u32, 256, 4, unsigned short, unsigned, 12)
GOCCCL_TEST_SEGSORT_PAIRS(test_segsort_pairs_f32_u32, 256, 8, float, unsigned, 14)
GOCCCL_TEST_SEGSORT_PAIRS(test_segsort_pairs_u64_u64, 256, 4, unsigned long long, unsigned long long, 14)
GOCCCL_TEST_SEGSORT_PAIRS(test_segsort_pairs_i32_u32_default, 256, 8, int, unsigned, 29)

// Merge (merge.cuh) and merge sort (merge_sort.cuh). ByHigh orders uint32
// keys by their high 16 bits only: the low bits ride along and show the
// order of equivalent keys (stability), bit for bit.
struct ByHigh
{
  __host__ __device__ bool operator()(uint32_t a, uint32_t b) const { return (a >> 16) < (b >> 16); }
};
#define GOCCCL_TEST_MERGE(NAME, BT, IPT, MINB)                                                                        \
  extern "C" __global__ void __launch_bounds__(BT, MINB) NAME##_tiles(const uint32_t* d_a, long long n_a,              \
                                                                      const uint32_t* d_b, long long n_b,              \
                                                                      uint32_t* d_out, const int64_t* d_splits)        \
  {                                                                                                                    \
    gocccl::merge_tiles<BT, IPT, uint32_t, ByHigh>(d_a, n_a, d_b, n_b, d_out, d_splits);                               \
  }                                                                                                                    \
  extern "C" __global__ void __launch_bounds__(BT, MINB) NAME##_partition(const uint32_t* d_a, long long n_a,          \
                                                                          const uint32_t* d_b, long long n_b,          \
                                                                          int64_t* d_splits, long long tiles)          \
  {                                                                                                                    \
    gocccl::merge_partition<BT, IPT, uint32_t, ByHigh>(d_a, n_a, d_b, n_b, d_splits, tiles);                           \
  }
#define GOCCCL_TEST_MERGE_SORT(NAME, BT, IPT)                                                                          \
  extern "C" __global__ void __launch_bounds__(BT) NAME##_block(uint32_t* k, void* tk, long long n, long long to_tmp)  \
  {                                                                                                                    \
    gocccl::merge_sort_keys_block<BT, IPT, uint32_t, ByHigh>(k, tk, n, to_tmp);                                        \
  }                                                                                                                    \
  extern "C" __global__ void __launch_bounds__(BT)                                                                     \
    NAME##_partition(const uint32_t* k, void* tk, long long n, void* p, long long from_tmp, long long merged)          \
  {                                                                                                                    \
    gocccl::merge_sort_keys_partition<BT, IPT, uint32_t, ByHigh>(k, tk, n, p, from_tmp, merged);                       \
  }                                                                                                                    \
  extern "C" __global__ void __launch_bounds__(BT)                                                                     \
    NAME##_merge(uint32_t* k, void* tk, long long n, void* p, long long from_tmp, long long merged)                    \
  {                                                                                                                    \
    gocccl::merge_sort_keys_merge<BT, IPT, uint32_t, ByHigh>(k, tk, n, p, from_tmp, merged);                           \
  }                                                                                                                    \
  extern "C" __global__ void __launch_bounds__(BT)                                                                     \
    NAME##_pairs_block(uint32_t* k, uint32_t* v, void* tk, void* tv, long long n, long long to_tmp)                    \
  {                                                                                                                    \
    gocccl::merge_sort_pairs_block<BT, IPT, uint32_t, uint32_t, ByHigh>(k, v, tk, tv, n, to_tmp);                      \
  }                                                                                                                    \
  extern "C" __global__ void __launch_bounds__(BT) NAME##_pairs_merge(                                                 \
    uint32_t* k, uint32_t* v, void* tk, void* tv, long long n, void* p, long long from_tmp, long long merged)          \
  {                                                                                                                    \
    gocccl::merge_sort_pairs_merge<BT, IPT, uint32_t, uint32_t, ByHigh>(k, v, tk, tv, n, p, from_tmp, merged);         \
  }                                                                                                                    \
  extern "C" __global__ void __launch_bounds__(BT) NAME##_single(const uint32_t* ki, uint32_t* k, long long n)         \
  {                                                                                                                    \
    gocccl::merge_sort_keys_single<BT, IPT, uint32_t, ByHigh>(ki, k, n);                                               \
  }                                                                                                                    \
  extern "C" __global__ void __launch_bounds__(BT)                                                                     \
    NAME##_pairs_single(const uint32_t* ki, const uint32_t* vi, uint32_t* k, uint32_t* v, long long n)                 \
  {                                                                                                                    \
    gocccl::merge_sort_pairs_single<BT, IPT, uint32_t, uint32_t, ByHigh>(ki, vi, k, v, n);                             \
  }

// The sm_90 policies (internal/algo: merge 256 x 15 at 8 blocks an SM, merge
// sort 256 x 17), and one-warp blocks (the search of both splits on warp 0)
// and small tiles (many tiles, many passes, at small n).
GOCCCL_TEST_MERGE(test_merge_u32, 256, 15, 8)
GOCCCL_TEST_MERGE(test_merge_u32_32x5, 32, 5, 0)
GOCCCL_TEST_MERGE_SORT(test_merge_sort_u32, 256, 17)
GOCCCL_TEST_MERGE_SORT(test_merge_sort_u32_64x3, 64, 3)
GOCCCL_TEST_MERGE_SORT(test_merge_sort_u32_32x3, 32, 3)

// ---------------------------------------------------------------------------
// Host side: device facts, random inputs, bookkeeping.

static int g_sms = 0;
static int g_checks = 0;
static int g_failures = 0;
static const int kSubscription = 5; // k in G = SMs * occupancy * k (CUB's factor)

static void record(bool ok, const std::string& what)
{
  ++g_checks;
  if (!ok)
  {
    ++g_failures;
    std::printf("FAIL %s\n", what.c_str());
  }
}

static uint64_t splitmix64(uint64_t& s)
{
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Random, never-zero values of each item type.
template <typename T> static T random_item(uint64_t& s);
template <> int random_item<int>(uint64_t& s)
{
  int v = static_cast<int>(static_cast<uint32_t>(splitmix64(s)));
  if (v == 0 || v == INT32_MIN) v = 1;
  return v;
}
template <> unsigned random_item<unsigned>(uint64_t& s)
{
  unsigned v = static_cast<unsigned>(splitmix64(s));
  return v ? v : 1;
}
template <> unsigned long long random_item<unsigned long long>(uint64_t& s)
{
  unsigned long long v = splitmix64(s);
  return v ? v : 1;
}
template <> float random_item<float>(uint64_t& s) // in [-1, 1] \ {0}
{
  float v = static_cast<float>(static_cast<int64_t>(splitmix64(s) >> 40) - (1 << 23)) / static_cast<float>(1 << 23);
  return v != 0.0f ? v : 0.5f;
}
template <> double random_item<double>(uint64_t& s)
{
  double v = (static_cast<double>(splitmix64(s) >> 11) / 9007199254740992.0) * 2e6 - 1e6;
  return v != 0.0 ? v : 1.0;
}
template <> signed char random_item<signed char>(uint64_t& s) // in [-100, 100] \ {0}
{
  int v = static_cast<int>(splitmix64(s) % 200) - 100;
  return static_cast<signed char>(v >= 0 ? v + 1 : v);
}
template <> unsigned char random_item<unsigned char>(uint64_t& s)
{
  unsigned char v = static_cast<unsigned char>(splitmix64(s));
  return v ? v : 1;
}
template <> short random_item<short>(uint64_t& s)
{
  short v = static_cast<short>(splitmix64(s));
  return v ? v : 1;
}
template <> long long random_item<long long>(uint64_t& s)
{
  long long v = static_cast<long long>(splitmix64(s));
  return v ? v : 1;
}
template <> MinMax random_item<MinMax>(uint64_t& s)
{
  int a = random_item<int>(s), b = random_item<int>(s);
  return MinMax{std::min(a, b), std::max(a, b)};
}
template <> Vec3 random_item<Vec3>(uint64_t& s)
{
  return Vec3{random_item<int>(s), random_item<int>(s), random_item<int>(s)};
}

template <typename T>
static void fill_random(std::vector<T>& v, uint64_t seed)
{
  uint64_t s = seed;
  for (auto& x : v) x = random_item<T>(s);
}

template <typename T>
static bool same_bytes(const T& a, const T& b)
{
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Device buffer of `count` items with `pad` poisoned items before and after
// the part handed to the kernel (to catch writes outside [0, count)).
template <typename T>
struct Guarded
{
  static constexpr long long kPad = 64;
  unsigned char* base = nullptr;
  long long count = 0;
  size_t bytes = 0;

  explicit Guarded(long long n) : count(n), bytes(static_cast<size_t>(n + 2 * kPad) * sizeof(T))
  {
    CK(cudaMalloc(&base, bytes));
  }
  ~Guarded() { CK(cudaFree(base)); }
  Guarded(const Guarded&) = delete;
  Guarded& operator=(const Guarded&) = delete;

  T* ptr() const { return reinterpret_cast<T*>(base) + kPad; }
  void poison() const { CK(cudaMemset(base, 0xAB, bytes)); }
  // Copies the items back and checks both guard zones.
  bool fetch(std::vector<T>& out) const
  {
    std::vector<unsigned char> all(bytes);
    CK(cudaMemcpy(all.data(), base, bytes, cudaMemcpyDeviceToHost));
    out.resize(static_cast<size_t>(count));
    if (count) std::memcpy(out.data(), all.data() + kPad * sizeof(T), static_cast<size_t>(count) * sizeof(T));
    const size_t guard = kPad * sizeof(T);
    for (size_t i = 0; i < guard; ++i)
    {
      if (all[i] != 0xAB || all[bytes - 1 - i] != 0xAB) return false;
    }
    return true;
  }
};

// ---------------------------------------------------------------------------
// Reduce: host dispatch exactly as the Go runtime does it.

template <typename T>
struct ReduceKernels
{
  const char* name;
  void (*partial)(const T*, long long, T*);
  void (*final_)(const T*, long long, T*, T);
  void (*sweep)(const T*, long long, T*, T, void*);
  int block_threads;
  int items_per_thread;
};

enum class Grid
{
  Default,      // G = min(num_tiles, SMs * occupancy * k)
  One,          // G = 1
  AllTiles,     // G = num_tiles
  FinalOnly,    // one block over the whole input
  Single,       // the single pass (last block finishes), default G, run twice on one scratch
  SingleAllTiles // the single pass with G = num_tiles
};
static const char* grid_name(Grid g)
{
  switch (g)
  {
    case Grid::Default: return "G=default";
    case Grid::One: return "G=1";
    case Grid::AllTiles: return "G=tiles";
    case Grid::Single: return "single-pass";
    case Grid::SingleAllTiles: return "single-pass G=tiles";
    default: return "final-only";
  }
}

// Returns the number of partials G used (0 when only _final ran).
template <typename T>
static long long run_reduce(const ReduceKernels<T>& k, const T* d_in, long long n, T* d_out, T init, Grid grid,
                            std::string& err)
{
  const long long tile = static_cast<long long>(k.block_threads) * k.items_per_thread;
  if (n <= tile || grid == Grid::FinalOnly)
  {
    k.final_<<<1, k.block_threads>>>(d_in, n, d_out, init);
    CK(cudaGetLastError());
    return 0;
  }
  const long long num_tiles = (n + tile - 1) / tile;
  long long G = num_tiles;
  if (grid == Grid::One)
  {
    G = 1;
  }
  else if (grid == Grid::Default || grid == Grid::Single)
  {
    int occupancy = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occupancy, k.partial, k.block_threads, 0));
    G = std::min<long long>(num_tiles, static_cast<long long>(g_sms) * occupancy * kSubscription);
  }
  if (grid == Grid::Single || grid == Grid::SingleAllTiles)
  {
    // Counter (zeroed once) and G partials; the kernel leaves the counter
    // zero, so the second run reuses the scratch as the runtime does.
    Guarded<unsigned char> scratch(16 + G * static_cast<long long>(sizeof(T)));
    scratch.poison();
    CK(cudaMemset(scratch.ptr(), 0, 16));
    for (int run = 0; run < 2; ++run)
    {
      k.sweep<<<static_cast<unsigned>(G), k.block_threads>>>(d_in, n, d_out, init, scratch.ptr());
      CK(cudaGetLastError());
    }
    CK(cudaDeviceSynchronize());
    std::vector<unsigned char> host_scratch;
    if (!scratch.fetch(host_scratch)) err = "scratch guard zone overwritten";
    unsigned int counter = 0;
    std::memcpy(&counter, host_scratch.data(), sizeof counter);
    if (counter != 0) err += " counter not reset";
    return G;
  }
  Guarded<T> partials(G);
  partials.poison();
  k.partial<<<static_cast<unsigned>(G), k.block_threads>>>(d_in, n, partials.ptr());
  CK(cudaGetLastError());
  k.final_<<<1, k.block_threads>>>(partials.ptr(), G, d_out, init);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<T> host_partials;
  if (!partials.fetch(host_partials)) err = "partials guard zone overwritten";
  return G;
}

// How a reduction result is checked.
enum class Check
{
  Exact,   // bitwise equal to the CPU fold (op is exact: integers, min/max, xor)
  FloatSum // |got - ref| <= rounding bound of the GPU's evaluation order
};

template <typename T, typename Op, Check CHECK>
static void test_reduce(const ReduceKernels<T>& k, const std::vector<long long>& sizes, long long in_offset,
                        uint64_t seed, const T* plant = nullptr)
{
  const Grid grids[] = {Grid::Default, Grid::One, Grid::AllTiles, Grid::FinalOnly, Grid::Single, Grid::SingleAllTiles};
  const long long tile = static_cast<long long>(k.block_threads) * k.items_per_thread;
  Op op;
  for (long long n : sizes)
  {
    std::vector<T> h_in(static_cast<size_t>(n));
    fill_random(h_in, seed ^ static_cast<uint64_t>(n));
    if (plant && n > 0) h_in[static_cast<size_t>(n - 1)] = *plant; // extreme value in the tail
    uint64_t s = seed * 31 + static_cast<uint64_t>(n);
    const T init = random_item<T>(s);

    // CPU reference.
    T ref = init;
    double ref_sum = 0.0, abs_sum = 0.0;
    if constexpr (CHECK == Check::FloatSum)
    {
      ref_sum = static_cast<double>(init);
      abs_sum = std::fabs(static_cast<double>(init));
      for (const T& x : h_in)
      {
        ref_sum += static_cast<double>(x);
        abs_sum += std::fabs(static_cast<double>(x));
      }
    }
    else
    {
      for (const T& x : h_in) ref = op(ref, x);
    }

    T* d_alloc = nullptr;
    CK(cudaMalloc(&d_alloc, static_cast<size_t>(n + in_offset + 1) * sizeof(T)));
    T* d_in = d_alloc + in_offset;
    if (n) CK(cudaMemcpy(d_in, h_in.data(), static_cast<size_t>(n) * sizeof(T), cudaMemcpyHostToDevice));
    Guarded<T> out(1);

    for (Grid grid : grids)
    {
      if (n <= tile && grid != Grid::Default) continue; // all grids are "final only" there
      if (grid == Grid::FinalOnly && n > (1ll << 22)) continue; // one block: slow at 2^26
      out.poison();
      std::string err;
      const long long G = run_reduce(k, d_in, n, out.ptr(), init, grid, err);
      CK(cudaDeviceSynchronize());
      std::vector<T> got;
      if (!out.fetch(got)) err += " output guard zone overwritten";

      char what[256];
      std::snprintf(what, sizeof what, "reduce %s n=%lld offset=%lld %s (G=%lld)", k.name, n, in_offset,
                    grid_name(grid), G);
      bool ok = err.empty();
      if constexpr (CHECK == Check::FloatSum)
      {
        // Longest chain of dependent float adds: a thread's serial items,
        // the block tree, then the same for the final pass over G partials.
        const long long blocks = G ? G : 1;
        const long long per_thread = (n + blocks * k.block_threads - 1) / (blocks * k.block_threads);
        const long long chain = per_thread + (blocks + k.block_threads - 1) / k.block_threads + 2 * 10 + 2;
        const double tol = 2.0 * static_cast<double>(chain) * std::ldexp(1.0, -24) * abs_sum + 1e-30;
        const double diff = std::fabs(static_cast<double>(got[0]) - ref_sum);
        if (!(diff <= tol))
        {
          ok = false;
          std::printf("  got %.9g want %.9g (|diff| %.3g > tol %.3g)\n", static_cast<double>(got[0]), ref_sum,
                      diff, tol);
        }
      }
      else
      {
        if (!same_bytes(got[0], ref))
        {
          ok = false;
          std::printf("  result differs from the CPU reference\n");
        }
      }
      if (!err.empty()) std::printf("  %s\n", err.c_str());
      record(ok, what);
    }
    CK(cudaFree(d_alloc));
  }
  std::printf("reduce    %-28s done\n", k.name);
}

// ---------------------------------------------------------------------------
// Transforms.

template <typename In, typename Out, typename Op>
static void test_transform(const char* name, void (*kernel)(const In*, Out*, long long), int bt, int ipt,
                           const std::vector<long long>& sizes, long long offset, bool in_place, uint64_t seed)
{
  const long long tile = static_cast<long long>(bt) * ipt;
  Op op;
  for (long long n : sizes)
  {
    if (n == 0) continue; // the host never launches for n == 0
    std::vector<In> h_in(static_cast<size_t>(n));
    fill_random(h_in, seed ^ static_cast<uint64_t>(n));
    std::vector<Out> ref(static_cast<size_t>(n));
    for (size_t i = 0; i < ref.size(); ++i) ref[i] = op(h_in[i]);

    Guarded<Out> out(n + offset);
    out.poison();
    In* d_alloc = nullptr;
    const In* d_in = nullptr;
    Out* d_out = out.ptr() + offset;
    if (in_place)
    {
      if constexpr (std::is_same<In, Out>::value)
      {
        CK(cudaMemcpy(d_out, h_in.data(), static_cast<size_t>(n) * sizeof(In), cudaMemcpyHostToDevice));
        d_in = d_out;
      }
    }
    else
    {
      CK(cudaMalloc(&d_alloc, static_cast<size_t>(n + offset) * sizeof(In)));
      CK(cudaMemcpy(d_alloc + offset, h_in.data(), static_cast<size_t>(n) * sizeof(In), cudaMemcpyHostToDevice));
      d_in = d_alloc + offset;
    }
    const long long grid = (n + tile - 1) / tile;
    kernel<<<static_cast<unsigned>(grid), bt>>>(d_in, d_out, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    std::vector<Out> got;
    bool ok = out.fetch(got);
    if (!ok) std::printf("  output guard zone overwritten\n");
    for (long long i = 0; i < offset; ++i)
    {
      Out poison;
      std::memset(&poison, 0xAB, sizeof(Out));
      if (!in_place && !same_bytes(got[static_cast<size_t>(i)], poison)) ok = false;
    }
    long long bad = 0, first_bad = -1;
    for (long long i = 0; i < n; ++i)
    {
      if (!same_bytes(got[static_cast<size_t>(i + offset)], ref[static_cast<size_t>(i)]))
      {
        if (first_bad < 0) first_bad = i;
        ++bad;
      }
    }
    if (bad)
    {
      ok = false;
      std::printf("  %lld wrong items, first at %lld\n", bad, first_bad);
    }
    char what[256];
    std::snprintf(what, sizeof what, "transform %s n=%lld offset=%lld%s", name, n, offset, in_place ? " in-place" : "");
    record(ok, what);
    if (d_alloc) CK(cudaFree(d_alloc));
  }
  std::printf("transform %-28s done\n", name);
}

template <typename A, typename B, typename Out, typename Op>
static void test_transform2(const char* name, void (*kernel)(const A*, const B*, Out*, long long), int bt, int ipt,
                            const std::vector<long long>& sizes, long long offset, uint64_t seed)
{
  const long long tile = static_cast<long long>(bt) * ipt;
  Op op;
  for (long long n : sizes)
  {
    if (n == 0) continue;
    std::vector<A> h_a(static_cast<size_t>(n));
    std::vector<B> h_b(static_cast<size_t>(n));
    fill_random(h_a, seed ^ static_cast<uint64_t>(n));
    fill_random(h_b, (seed * 7) ^ static_cast<uint64_t>(n));
    std::vector<Out> ref(static_cast<size_t>(n));
    for (size_t i = 0; i < ref.size(); ++i) ref[i] = op(h_a[i], h_b[i]);

    A* d_a = nullptr;
    B* d_b = nullptr;
    CK(cudaMalloc(&d_a, static_cast<size_t>(n + offset) * sizeof(A)));
    CK(cudaMalloc(&d_b, static_cast<size_t>(n + offset) * sizeof(B)));
    CK(cudaMemcpy(d_a + offset, h_a.data(), static_cast<size_t>(n) * sizeof(A), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_b + offset, h_b.data(), static_cast<size_t>(n) * sizeof(B), cudaMemcpyHostToDevice));
    Guarded<Out> out(n);
    out.poison();
    const long long grid = (n + tile - 1) / tile;
    kernel<<<static_cast<unsigned>(grid), bt>>>(d_a + offset, d_b + offset, out.ptr(), n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    std::vector<Out> got;
    bool ok = out.fetch(got);
    if (!ok) std::printf("  output guard zone overwritten\n");
    long long bad = 0, first_bad = -1;
    for (long long i = 0; i < n; ++i)
    {
      if (!same_bytes(got[static_cast<size_t>(i)], ref[static_cast<size_t>(i)]))
      {
        if (first_bad < 0) first_bad = i;
        ++bad;
      }
    }
    if (bad)
    {
      ok = false;
      std::printf("  %lld wrong items, first at %lld\n", bad, first_bad);
    }
    char what[256];
    std::snprintf(what, sizeof what, "transform2 %s n=%lld offset=%lld", name, n, offset);
    record(ok, what);
    CK(cudaFree(d_a));
    CK(cudaFree(d_b));
  }
  std::printf("transform %-28s done\n", name);
}

// Sizes: the fixed list, plus tile-relative edges of the policy under test.
static std::vector<long long> sizes_for(long long tile, bool quick)
{
  std::vector<long long> v = {0, 1, 255, 256, 257, 4095, 4096, 4097, 1000003};
  if (!quick) v.push_back(1ll << 26);
  for (long long x : {tile - 1, tile, tile + 1, 2 * tile + 1, 3 * tile - 1, 5 * tile}) v.push_back(x);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// ---------------------------------------------------------------------------
// Adjacent difference: runtime/adjacent_difference.go's dispatch.

template <typename In, typename T>
struct AdjacentKernels
{
  const char* name;
  void (*left)(In, T*, long long);
  void (*right)(In, T*, long long);
  int bt, ipt;
};

// Runs one side over d_in (whose items h_in holds) into a poisoned output
// out_offset items into its allocation, then checks every item against the
// host's op, the items before it and the guard zones (untouched), and that
// the operator never saw two items that are not neighbours (StepSub).
template <typename In, typename T, typename Op>
static void check_adjacent(const AdjacentKernels<In, T>& k, bool left, In d_in, const std::vector<T>& h_in,
                           long long out_offset, const char* what)
{
  const long long n = static_cast<long long>(h_in.size());
  const long long tile = static_cast<long long>(k.bt) * k.ipt;
  Guarded<T> out(n + out_offset);
  out.poison();
  const unsigned long long zero = 0;
  CK(cudaMemcpyToSymbol(g_adj_bad_calls, &zero, sizeof zero));
  // n == 0 (the runtime launches nothing): one block, which must write nothing.
  const long long grid = std::max(1LL, (n + tile - 1) / tile);
  (left ? k.left : k.right)<<<static_cast<unsigned>(grid), k.bt>>>(d_in, out.ptr() + out_offset, n);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  unsigned long long bad_calls = 0;
  CK(cudaMemcpyFromSymbol(&bad_calls, g_adj_bad_calls, sizeof bad_calls));

  std::vector<T> got;
  bool ok = out.fetch(got);
  if (!ok) std::printf("  output guard zone overwritten\n");
  T poison;
  std::memset(&poison, 0xAB, sizeof(T));
  for (long long i = 0; i < out_offset; ++i)
  {
    if (!same_bytes(got[static_cast<size_t>(i)], poison)) ok = false;
  }
  Op op;
  long long bad = 0, first_bad = -1;
  for (long long i = 0; i < n; ++i)
  {
    const T& x = h_in[static_cast<size_t>(i)];
    const T want = left ? (i == 0 ? x : op(x, h_in[static_cast<size_t>(i - 1)]))
                        : (i == n - 1 ? x : op(x, h_in[static_cast<size_t>(i + 1)]));
    if (!same_bytes(got[static_cast<size_t>(i + out_offset)], want))
    {
      if (first_bad < 0) first_bad = i;
      ++bad;
    }
  }
  if (bad)
  {
    ok = false;
    std::printf("  %lld wrong items, first at %lld\n", bad, first_bad);
  }
  if (bad_calls)
  {
    ok = false;
    std::printf("  %llu operator calls on items that are not neighbours\n", bad_calls);
  }
  record(ok, what);
}

// Sizes around a warp's share (32 * ipt) and a block's (the tile).
static std::vector<long long> adjacent_sizes(int bt, int ipt, bool quick)
{
  const long long warp = 32ll * ipt, tile = static_cast<long long>(bt) * ipt;
  std::vector<long long> v = sizes_for(tile, quick);
  for (long long x : {2ll, 31ll, 32ll, 33ll, warp - 1, warp, warp + 1, tile + warp - 1, tile + warp + 1,
                      7 * tile + 3 * warp + 5})
  {
    v.push_back(x);
  }
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// Both sides over random items at in_offset / out_offset items into their
// allocations (an offset of one item: one item per access).
template <typename T, typename Op>
static void test_adjacent(const AdjacentKernels<const T*, T>& k, const std::vector<long long>& sizes,
                          long long in_offset, long long out_offset, uint64_t seed)
{
  for (long long n : sizes)
  {
    std::vector<T> h(static_cast<size_t>(n));
    fill_random(h, seed ^ static_cast<uint64_t>(n));
    T* d = nullptr;
    CK(cudaMalloc(&d, static_cast<size_t>(n + in_offset + 1) * sizeof(T)));
    if (n) CK(cudaMemcpy(d + in_offset, h.data(), static_cast<size_t>(n) * sizeof(T), cudaMemcpyHostToDevice));
    for (bool left : {true, false})
    {
      char what[256];
      std::snprintf(what, sizeof what, "adjacent_difference %s %s n=%lld in+%lld out+%lld", k.name,
                    left ? "left" : "right", n, in_offset, out_offset);
      check_adjacent<const T*, T, Op>(k, left, d + in_offset, h, out_offset, what);
    }
    CK(cudaFree(d));
  }
  std::printf("adjacent_difference %-12s in+%lld out+%lld done\n", k.name, in_offset, out_offset);
}

// StepSub over in[i] = Weyl(i): from a pointer (at in_offset items) or, when
// `iterator`, from WeylIt (Counting through Weyl: one item per access).
static void test_adjacent_step(const AdjacentKernels<const unsigned*, unsigned>& kp,
                               const AdjacentKernels<WeylIt, unsigned>& ki, const std::vector<long long>& sizes,
                               bool iterator, long long in_offset)
{
  Weyl weyl;
  for (long long n : sizes)
  {
    std::vector<unsigned> h(static_cast<size_t>(n));
    for (long long i = 0; i < n; ++i) h[static_cast<size_t>(i)] = weyl(static_cast<unsigned>(i));
    unsigned* d = nullptr;
    if (!iterator)
    {
      CK(cudaMalloc(&d, static_cast<size_t>(n + in_offset + 1) * sizeof(unsigned)));
      if (n) CK(cudaMemcpy(d + in_offset, h.data(), static_cast<size_t>(n) * sizeof(unsigned), cudaMemcpyHostToDevice));
    }
    for (bool left : {true, false})
    {
      char what[256];
      std::snprintf(what, sizeof what, "adjacent_difference %s %s n=%lld in+%lld", iterator ? ki.name : kp.name,
                    left ? "left" : "right", n, in_offset);
      if (iterator)
      {
        check_adjacent<WeylIt, unsigned, StepSub>(ki, left, WeylIt{gocccl::it::Counting<unsigned>{0u}}, h, 0, what);
      }
      else
      {
        check_adjacent<const unsigned*, unsigned, StepSub>(kp, left, d + in_offset, h, 0, what);
      }
    }
    if (d) CK(cudaFree(d));
  }
  std::printf("adjacent_difference %-12s in+%lld done\n", iterator ? ki.name : kp.name, in_offset);
}

// test_adjacent_at runs shape k over its sizes (all, or the quick ones)
// aligned with seed, then over every size with the input in_offset items
// into its allocation (seed + 1), and, when out_offset, with the output
// one item in (seed + 2).
template <typename T, typename Op>
static void test_adjacent_at(const AdjacentKernels<const T*, T>& k, bool quick, long long in_offset, bool out_offset,
                             uint64_t seed)
{
  test_adjacent<T, Op>(k, adjacent_sizes(k.bt, k.ipt, quick), 0, 0, seed);
  if (in_offset > 0)
  {
    test_adjacent<T, Op>(k, adjacent_sizes(k.bt, k.ipt, true), in_offset, 0, seed + 1);
  }
  if (out_offset)
  {
    test_adjacent<T, Op>(k, adjacent_sizes(k.bt, k.ipt, true), 0, 1, seed + 2);
  }
}

static void test_adjacents(bool quick)
{
  // The runtime's shapes (arch.MemBound(size, 16)), aligned and offset.
  const AdjacentKernels<const unsigned*, unsigned> u32p{"u32_p", test_adj_u32_p_left, test_adj_u32_p_right, 256, 4};
  test_adjacent_at<unsigned, Sub>(u32p, quick, 1, true, 60);
  const AdjacentKernels<const float*, float> f32p{"f32_p", test_adj_f32_p_left, test_adj_f32_p_right, 256, 4};
  test_adjacent_at<float, Sub>(f32p, quick, 1, true, 63);
  const AdjacentKernels<const unsigned long long*, unsigned long long> u64p{"u64_p", test_adj_u64_p_left,
                                                                            test_adj_u64_p_right, 256, 2};
  test_adjacent_at<unsigned long long, Sub>(u64p, quick, 1, true, 66);
  const AdjacentKernels<const double*, double> f64p{"f64_p", test_adj_f64_p_left, test_adj_f64_p_right, 256, 2};
  test_adjacent_at<double, Sub>(f64p, quick, 1, false, 69);
  const AdjacentKernels<const signed char*, signed char> i8p{"i8_p", test_adj_i8_p_left, test_adj_i8_p_right, 256, 16};
  test_adjacent_at<signed char, Sub>(i8p, quick, 3, false, 71);
  const AdjacentKernels<const MinMax*, MinMax> mmp{"minmax_p", test_adj_minmax_p_left, test_adj_minmax_p_right, 256, 2};
  test_adjacent_at<MinMax, MinMaxSub>(mmp, quick, 1, false, 73); // 8 B aligned only
  const AdjacentKernels<const Vec3*, Vec3> v3p{"vec3_p", test_adj_vec3_p_left, test_adj_vec3_p_right, 256, 1};
  test_adjacent_at<Vec3, Vec3Sub>(v3p, quick, 0, false, 75);

  // Two chunks a lane (32 bytes a thread) and the odd policy.
  const AdjacentKernels<const unsigned*, unsigned> u32{"u32", test_adj_u32_left, test_adj_u32_right, 256, 8};
  test_adjacent_at<unsigned, Sub>(u32, quick, 1, true, 40);
  const AdjacentKernels<const float*, float> f32{"f32", test_adj_f32_left, test_adj_f32_right, 256, 8};
  test_adjacent_at<float, Sub>(f32, quick, 1, true, 43);
  const AdjacentKernels<const unsigned long long*, unsigned long long> u64{"u64", test_adj_u64_left,
                                                                           test_adj_u64_right, 256, 4};
  test_adjacent_at<unsigned long long, Sub>(u64, quick, 1, true, 46);
  const AdjacentKernels<const double*, double> f64{"f64", test_adj_f64_left, test_adj_f64_right, 256, 4};
  test_adjacent_at<double, Sub>(f64, quick, 1, true, 49);
  const AdjacentKernels<const signed char*, signed char> i8{"i8", test_adj_i8_left, test_adj_i8_right, 256, 32};
  test_adjacent_at<signed char, Sub>(i8, quick, 3, false, 52);
  const AdjacentKernels<const MinMax*, MinMax> mm{"minmax", test_adj_minmax_left, test_adj_minmax_right, 256, 4};
  test_adjacent_at<MinMax, MinMaxSub>(mm, quick, 1, false, 54); // 8 B aligned only
  const AdjacentKernels<const Vec3*, Vec3> v3{"vec3", test_adj_vec3_left, test_adj_vec3_right, 256, 2};
  test_adjacent_at<Vec3, Vec3Sub>(v3, quick, 0, false, 56);
  const AdjacentKernels<const unsigned*, unsigned> odd{"u32_96x7", test_adj_u32_96x7_left, test_adj_u32_96x7_right,
                                                       96, 7};
  test_adjacent_at<unsigned, Sub>(odd, true, 0, false, 57);

  const AdjacentKernels<const unsigned*, unsigned> step{"step", test_adj_step_left, test_adj_step_right, 256, 8};
  const AdjacentKernels<WeylIt, unsigned> step_it{"step_it", test_adj_step_it_left, test_adj_step_it_right, 256, 8};
  test_adjacent_step(step, step_it, adjacent_sizes(256, 8, quick), false, 0);
  test_adjacent_step(step, step_it, adjacent_sizes(256, 8, true), false, 1);
  test_adjacent_step(step, step_it, adjacent_sizes(256, 8, quick), true, 0);
}

// n > 2^31: 64-bit offsets in both passes, in transform's grid and in
// adjacent difference's.
static void test_large()
{
  const long long n = (1ll << 31) + 4097;
  std::printf("large cases: n = %lld\n", n);
  {
    std::vector<unsigned char> h(static_cast<size_t>(n));
    uint64_t s = 12345;
    for (long long i = 0; i < n; i += 8)
    {
      uint64_t r = splitmix64(s);
      for (int b = 0; b < 8 && i + b < n; ++b)
      {
        unsigned char v = static_cast<unsigned char>(r >> (8 * b));
        h[static_cast<size_t>(i + b)] = v ? v : 1;
      }
    }
    unsigned char xr = 0x3C;
    for (unsigned char x : h) xr ^= x;
    unsigned char* d_in = nullptr;
    CK(cudaMalloc(&d_in, static_cast<size_t>(n)));
    CK(cudaMemcpy(d_in, h.data(), static_cast<size_t>(n), cudaMemcpyHostToDevice));
    ReduceKernels<unsigned char> k{"xor_u8", test_reduce_xor_u8_partial, test_reduce_xor_u8_final, test_reduce_xor_u8_sweep, 256, 32};
    Guarded<unsigned char> out(1);
    for (Grid grid : {Grid::Default, Grid::AllTiles})
    {
      out.poison();
      std::string err;
      long long G = run_reduce(k, d_in, n, out.ptr(), static_cast<unsigned char>(0x3C), grid, err);
      CK(cudaDeviceSynchronize());
      std::vector<unsigned char> got;
      bool ok = out.fetch(got) && err.empty() && got[0] == xr;
      char what[128];
      std::snprintf(what, sizeof what, "reduce xor_u8 n=%lld %s (G=%lld)", n, grid_name(grid), G);
      record(ok, what);
    }
    // int8 min with the unique minimum as the very last item.
    std::vector<signed char> hs(static_cast<size_t>(n));
    for (long long i = 0; i < n; ++i) hs[static_cast<size_t>(i)] = static_cast<signed char>((h[static_cast<size_t>(i)] % 100) + 1);
    hs[static_cast<size_t>(n - 1)] = -7;
    CK(cudaMemcpy(d_in, hs.data(), static_cast<size_t>(n), cudaMemcpyHostToDevice));
    ReduceKernels<signed char> km{"min_i8", test_reduce_min_i8_partial, test_reduce_min_i8_final, test_reduce_min_i8_sweep, 256, 32};
    Guarded<signed char> outm(1);
    outm.poison();
    std::string err;
    long long G = run_reduce(km, reinterpret_cast<const signed char*>(d_in), n, outm.ptr(),
                             static_cast<signed char>(100), Grid::Default, err);
    CK(cudaDeviceSynchronize());
    std::vector<signed char> gotm;
    bool ok = outm.fetch(gotm) && err.empty() && gotm[0] == -7;
    char what[128];
    std::snprintf(what, sizeof what, "reduce min_i8 n=%lld G=default (G=%lld) min at n-1", n, G);
    record(ok, what);

    // transform int8 -> int8 over the whole range.
    Guarded<signed char> tout(n);
    tout.poison();
    const long long grid = (n + 8191) / 8192;
    test_transform_i8_i8<<<static_cast<unsigned>(grid), 256>>>(reinterpret_cast<const signed char*>(d_in), tout.ptr(), n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<signed char> tgot;
    ok = tout.fetch(tgot);
    I8Inc inc;
    long long bad = 0;
    for (long long i = 0; i < n; ++i) bad += tgot[static_cast<size_t>(i)] != inc(hs[static_cast<size_t>(i)]);
    std::snprintf(what, sizeof what, "transform i8_i8 n=%lld (%lld wrong)", n, bad);
    record(ok && bad == 0, what);

    // adjacent difference int8 over the whole range, both sides, at the
    // runtime's shape (256 x 16: one 16-byte chunk a lane).
    Sub sub;
    const long long adj_grid = (n + 4095) / 4096;
    for (bool left : {true, false})
    {
      tout.poison();
      auto kernel = left ? test_adj_i8_p_left : test_adj_i8_p_right;
      kernel<<<static_cast<unsigned>(adj_grid), 256>>>(reinterpret_cast<const signed char*>(d_in), tout.ptr(), n);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      ok = tout.fetch(tgot);
      bad = 0;
      for (long long i = 0; i < n; ++i)
      {
        const signed char x = hs[static_cast<size_t>(i)];
        const signed char want = left ? (i == 0 ? x : sub(x, hs[static_cast<size_t>(i - 1)]))
                                      : (i == n - 1 ? x : sub(x, hs[static_cast<size_t>(i + 1)]));
        bad += tgot[static_cast<size_t>(i)] != want;
      }
      std::snprintf(what, sizeof what, "adjacent_difference i8 %s n=%lld (%lld wrong)", left ? "left" : "right", n, bad);
      record(ok && bad == 0, what);
    }
    CK(cudaFree(d_in));
  }
}

// ---------------------------------------------------------------------------
// Segmented sort: host dispatch exactly as runtime/segmented_sort_gpu.go does
// it (classify, the warp and block classes, then Onesweep over the large
// segments' tiles: one launch per digit pass and portion index), checked
// against std::stable_sort of each segment by the keys' ordered bits.

template <typename K, typename V>
struct SegsortKernels
{
  using Data = void (*)(const K*, K*, const V*, V*, const int64_t*, const int64_t*, long long, void*, long long,
                        long long, long long, long long);
  using Sort = void (*)(const K*, K*, const V*, V*, const int64_t*, const int64_t*, long long, void*, long long,
                        long long, long long, long long, bool);
  const char* name;
  bool pairs;
  int block_threads;
  int items_per_thread;
  int portion_bits;
  void (*init)(void*, long long);
  Data classify;
  Sort small, medium, big;
  void (*plan)(const int64_t*, const int64_t*, long long, void*, long long, long long, long long, long long);
  void (*histogram)(const K*, const int64_t*, const int64_t*, long long, void*, long long, long long, long long,
                    long long, void*, bool);
  void (*onesweep)(const K*, K*, const V*, V*, const int64_t*, const int64_t*, long long, void*, long long,
                   long long, long long, long long, void*, void*, long long, long long, bool);
  // The one-launch fallback (segmented_sort_{keys,pairs}_each).
  void (*each)(const K*, K*, const V*, V*, const int64_t*, const int64_t*, long long, long long, void*, void*, bool);

  long long tile() const { return static_cast<long long>(block_threads) * items_per_thread; }
  long long portion() const { return ((1ll << portion_bits) - 1) / tile() * tile(); }
};

#define GOCCCL_SEGSORT_KERNELS(NAME, PAIRS, BT, IPT, PB)                                                   \
  {#NAME, PAIRS, BT, IPT, PB, NAME##_init, NAME##_classify, NAME##_small, NAME##_medium, NAME##_big,        \
   NAME##_plan, NAME##_histogram, NAME##_onesweep, NAME##_each}

// Sorts segments [begin[s], end[s]) of keys (and values) in -> out; returns
// the Onesweep launches it made. more_launches: ceil(n / portion) launches
// per pass rather than the runtime's tighter bound.
template <typename K, typename V>
static long long run_segsort(const SegsortKernels<K, V>& k, const K* d_kin, K* d_kout, const V* d_vin, V* d_vout,
                             const int64_t* d_begin, const int64_t* d_end, long long n, long long segs,
                             bool descending, bool more_launches)
{
  if (n == 0 || segs == 0) return 0;
  const long long threads = k.block_threads, tile = k.tile();
  const long long medium_max = threads * 4, big_max = std::max(tile, medium_max);
  const long long cap_medium = std::min(segs, n / 129);
  const long long cap_big = big_max == medium_max ? 0 : std::min(segs, n / (medium_max + 1));
  const long long cap_large = std::min(segs, n / (big_max + 1));
  const long long list_words = 16 + segs + cap_medium + cap_big + 3 * cap_large + 2;
  void* lists = nullptr;
  CK(cudaMalloc(&lists, static_cast<size_t>(8 * list_words)));
  k.init<<<1, k.block_threads>>>(lists, 16);
  CK(cudaGetLastError());
#define GOCCCL_SEGSORT_LIST_ARGS lists, segs, cap_medium, cap_big, cap_large
  k.classify<<<static_cast<unsigned>((segs + threads - 1) / threads), k.block_threads>>>(
    d_kin, d_kout, d_vin, d_vout, d_begin, d_end, n, GOCCCL_SEGSORT_LIST_ARGS);
  CK(cudaGetLastError());
  long long small = segs, medium = cap_medium, big = cap_big, large = 0, tiles = 0, portions = 0;
  if (cap_large > 0)
  {
    unsigned long long counts[6];
    CK(cudaMemcpy(counts, lists, sizeof counts, cudaMemcpyDeviceToHost));
    small = std::min(small, static_cast<long long>(counts[0]));
    medium = std::min(medium, static_cast<long long>(counts[1]));
    big = std::min(big, static_cast<long long>(counts[2]));
    large = std::min(cap_large, static_cast<long long>(counts[3]));
    tiles = static_cast<long long>(counts[4]);
    portions = static_cast<long long>(counts[5]);
  }
  const long long warps = threads / 32;
  if (small > 0)
    k.small<<<static_cast<unsigned>((small + warps - 1) / warps), k.block_threads>>>(
      d_kin, d_kout, d_vin, d_vout, d_begin, d_end, n, GOCCCL_SEGSORT_LIST_ARGS, descending);
  if (medium > 0)
    k.medium<<<static_cast<unsigned>(medium), k.block_threads>>>(d_kin, d_kout, d_vin, d_vout, d_begin, d_end, n,
                                                                GOCCCL_SEGSORT_LIST_ARGS, descending);
  if (big > 0)
    k.big<<<static_cast<unsigned>(big), k.block_threads>>>(d_kin, d_kout, d_vin, d_vout, d_begin, d_end, n,
                                                          GOCCCL_SEGSORT_LIST_ARGS, descending);
  CK(cudaGetLastError());
  long long launches = 0;
  if (large > 0)
  {
    const long long passes = sizeof(K);
    const long long lookback_at = 8 * (portions * passes * 256 + large);
    const long long words = lookback_at / 8 + tiles * 256 / 2;
    unsigned char* tmp = nullptr;
    CK(cudaMalloc(&tmp, static_cast<size_t>(lookback_at + 4 * tiles * 256)));
    K* alt_k = nullptr;
    V* alt_v = nullptr;
    CK(cudaMalloc(&alt_k, static_cast<size_t>(n) * sizeof(K)));
    if (k.pairs) CK(cudaMalloc(&alt_v, static_cast<size_t>(n) * sizeof(V)));
    k.init<<<static_cast<unsigned>(std::min((words + threads - 1) / threads, 4096ll)), k.block_threads>>>(tmp, words);
    k.plan<<<1, k.block_threads>>>(d_begin, d_end, n, GOCCCL_SEGSORT_LIST_ARGS);
    k.histogram<<<static_cast<unsigned>(tiles), k.block_threads>>>(d_kin, d_begin, d_end, n,
                                                                   GOCCCL_SEGSORT_LIST_ARGS, tmp, descending);
    CK(cudaGetLastError());
    // Launches per pass: a bound on any large segment's portions (as the
    // runtime takes it), or every portion index of n items (extra launches
    // find no tile of their portion).
    const long long per_pass =
      more_launches ? (n + k.portion() - 1) / k.portion()
                    : std::min((n + k.portion() - 1) / k.portion(), portions - large + 1);
    const K* src_k = d_kin;
    const V* src_v = d_vin;
    for (long long p = 0; p < passes; ++p)
    {
      K* dst_k = (passes - 1 - p) % 2 == 1 ? alt_k : d_kout;
      V* dst_v = (passes - 1 - p) % 2 == 1 ? alt_v : d_vout;
      for (long long r = 0; r < per_pass; ++r, ++launches)
      {
        k.onesweep<<<static_cast<unsigned>(tiles), k.block_threads>>>(
          src_k, dst_k, src_v, dst_v, d_begin, d_end, n, GOCCCL_SEGSORT_LIST_ARGS, tmp, tmp + lookback_at,
          per_pass, p * per_pass + r, descending);
        CK(cudaGetLastError());
      }
      src_k = dst_k;
      src_v = dst_v;
    }
    CK(cudaDeviceSynchronize());
    CK(cudaFree(tmp));
    CK(cudaFree(alt_k));
    if (alt_v) CK(cudaFree(alt_v));
  }
#undef GOCCCL_SEGSORT_LIST_ARGS
  CK(cudaDeviceSynchronize());
  CK(cudaFree(lists));
  return launches;
}

// Sorts the segments with the one-launch fallback, as the runtime launches
// it for few segments: grid segs, alternate buffers of n items.
template <typename K, typename V>
static void run_each(const SegsortKernels<K, V>& k, const K* d_kin, K* d_kout, const V* d_vin, V* d_vout,
                     const int64_t* d_begin, const int64_t* d_end, long long n, long long segs, bool descending)
{
  if (n == 0 || segs == 0) return;
  K* alt_k = nullptr;
  V* alt_v = nullptr;
  CK(cudaMalloc(&alt_k, static_cast<size_t>(n) * sizeof(K)));
  if (k.pairs) CK(cudaMalloc(&alt_v, static_cast<size_t>(n) * sizeof(V)));
  k.each<<<static_cast<unsigned>(segs), k.block_threads>>>(d_kin, d_kout, d_vin, d_vout, d_begin, d_end, n, segs,
                                                           alt_k, alt_v, descending);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaFree(alt_k));
  if (alt_v) CK(cudaFree(alt_v));
}

// The order radix_sort.cuh sorts keys in, written independently: unsigned
// as they are, signed with the sign bit flipped, floats negative: all bits
// flipped, else the sign bit set.
template <typename K>
static uint64_t ordered_bits(K k)
{
  uint64_t b = 0;
  std::memcpy(&b, &k, sizeof(K));
  const uint64_t sign = 1ull << (8 * sizeof(K) - 1);
  const uint64_t all = sizeof(K) == 8 ? ~0ull : (1ull << (8 * sizeof(K))) - 1;
  if (std::is_floating_point<K>::value) return (b & sign) ? (~b & all) : (b | sign);
  if (std::is_signed<K>::value) return b ^ sign;
  return b;
}

enum class SegKeys
{
  Random, // all bits random
  Few,    // four random patterns: long runs of equal digits
  Same,   // one pattern per case: every full tile takes the one-digit short cut
  Sparse, // one pattern with bytes 0, 2 and 5 random: the other bytes' passes
          // hold one digit (the fallback skips them: 1, 2 or 3 passes run)
  // One pattern with one byte random (the fallback alone: it runs that
  // byte's pass and skips the others, so it writes the output from the
  // input in one pass):
  LowByte,  // byte 0: the first pass runs
  MidByte,  // byte sizeof(K) / 2 (byte 0 of 1-byte keys)
  HighByte  // the highest byte (sign and exponent of floats): the last pass runs
};

// Segment layouts over portion P and tile T: (begin, end) pairs and n.
static void segsort_layout(int layout, long long P, long long T, uint64_t& s, std::vector<int64_t>& begin,
                           std::vector<int64_t>& end, long long& n, std::string& name)
{
  begin.clear();
  end.clear();
  auto add = [&](long long b, long long len) {
    begin.push_back(b);
    end.push_back(b + len);
  };
  switch (layout)
  {
    case 0: // one segment of 5 portions, 3 tiles and some: partial last portion and tile
      name = "one";
      n = 5 * P + 3 * T + 17;
      add(0, n);
      break;
    case 1: // a segment at an odd offset, and end past n (clamped)
      name = "offset";
      n = 4 * P + 100;
      add(17, n + 1000 - 17);
      break;
    case 2: // lengths at portion edges, back to back, and a gap
    {
      name = "edges";
      long long pos = 0;
      for (long long len : {P, 2 * P, P + 1, P - 1, 3 * P + T, T + 1, 2 * P - 1})
      {
        add(pos, len);
        pos += len;
      }
      pos += 5;
      add(pos, 2 * P + 3);
      pos += 2 * P + 3;
      n = pos + 7;
      break;
    }
    default: // every class, gaps between segments, and the segments listed out of order
    {
      name = "mixed";
      long long pos = 0;
      const long long target = 24 * P;
      while (pos < target)
      {
        const uint64_t r = splitmix64(s);
        long long len;
        switch (r % 8)
        {
          case 0: len = static_cast<long long>(r >> 8) % 3; break; // 0, 1, 2
          case 1: len = 3 + static_cast<long long>(r >> 8) % 126; break;
          case 2: len = 129 + static_cast<long long>(r >> 8) % 2000; break;
          case 3: len = T - 2 + static_cast<long long>(r >> 8) % 5; break;
          case 4: len = T + 1 + static_cast<long long>(r >> 8) % (2 * T); break;
          case 5: len = P - T + static_cast<long long>(r >> 8) % (2 * T); break;
          default: len = P + static_cast<long long>(r >> 8) % (3 * P); break;
        }
        add(pos, len);
        pos += len + static_cast<long long>((r >> 40) % 3); // gaps of 0..2
      }
      n = pos;
      for (size_t i = begin.size(); i > 1; --i) // shuffle the segment order
      {
        const size_t j = static_cast<size_t>(splitmix64(s) % i);
        std::swap(begin[i - 1], begin[j]);
        std::swap(end[i - 1], end[j]);
      }
      break;
    }
  }
}

template <typename K, typename V>
static void test_segsort(const SegsortKernels<K, V>& k, uint64_t seed)
{
  // Layouts are sized by the portion, but at most 16 tiles (the default
  // PORTION_BITS: segments of one portion).
  const long long T = k.tile(), P = std::min(k.portion(), 16 * T);
  uint64_t s = seed;
  for (int layout = 0; layout < 4; ++layout)
  {
    for (SegKeys dist : {SegKeys::Random, SegKeys::Few, SegKeys::Same, SegKeys::Sparse, SegKeys::LowByte,
                         SegKeys::MidByte, SegKeys::HighByte})
    {
      for (int variant = 0; variant < 4; ++variant)
      {
        const bool desc = variant % 2 == 1;
        const bool each = variant >= 2; // the one-launch fallback
        if (!each && dist > SegKeys::Sparse) continue; // one random byte: the fallback's pass skipping
        const bool more_launches = desc && dist == SegKeys::Few;
        std::vector<int64_t> hb, he;
        long long n = 0;
        std::string lname;
        segsort_layout(layout, P, T, s, hb, he, n, lname);
        const long long segs = static_cast<long long>(hb.size());
        std::vector<K> keys(static_cast<size_t>(n));
        uint64_t patterns[4];
        for (uint64_t& p : patterns) p = splitmix64(s);
        for (long long i = 0; i < n; ++i)
        {
          const int byte = dist == SegKeys::LowByte    ? 0
                           : dist == SegKeys::MidByte  ? static_cast<int>(sizeof(K)) / 2
                           : dist == SegKeys::HighByte ? static_cast<int>(sizeof(K)) - 1
                                                       : -1;
          const uint64_t bits = dist == SegKeys::Random   ? splitmix64(s)
                                : dist == SegKeys::Few    ? patterns[splitmix64(s) % 4]
                                : dist == SegKeys::Sparse ? patterns[0] ^ (splitmix64(s) & 0x0000ff0000ff00ffull)
                                : byte >= 0               ? patterns[0] ^ ((splitmix64(s) & 0xffull) << (8 * byte))
                                                          : patterns[0];
          std::memcpy(&keys[static_cast<size_t>(i)], &bits, sizeof(K));
        }
        std::vector<V> values(static_cast<size_t>(n));
        for (long long i = 0; i < n; ++i) values[static_cast<size_t>(i)] = static_cast<V>(i);

        // The reference: each segment (clamped to [0, n)) stable-sorted by
        // ordered bits; everything else untouched (compared as poison).
        std::vector<long long> perm(static_cast<size_t>(n), -1);
        for (long long g = 0; g < segs; ++g)
        {
          const long long b = std::max(0ll, std::min(static_cast<long long>(hb[static_cast<size_t>(g)]), n));
          const long long e = std::max(b, std::min(static_cast<long long>(he[static_cast<size_t>(g)]), n));
          std::vector<long long> idx;
          for (long long i = b; i < e; ++i) idx.push_back(i);
          std::stable_sort(idx.begin(), idx.end(), [&](long long x, long long y) {
            const uint64_t a = ordered_bits(keys[static_cast<size_t>(x)]);
            const uint64_t c = ordered_bits(keys[static_cast<size_t>(y)]);
            return desc ? c < a : a < c;
          });
          for (long long i = b; i < e; ++i) perm[static_cast<size_t>(i)] = idx[static_cast<size_t>(i - b)];
        }

        K* d_kin = nullptr;
        V* d_vin = nullptr;
        int64_t *d_b = nullptr, *d_e = nullptr;
        CK(cudaMalloc(&d_kin, static_cast<size_t>(n) * sizeof(K)));
        CK(cudaMemcpy(d_kin, keys.data(), static_cast<size_t>(n) * sizeof(K), cudaMemcpyHostToDevice));
        if (k.pairs)
        {
          CK(cudaMalloc(&d_vin, static_cast<size_t>(n) * sizeof(V)));
          CK(cudaMemcpy(d_vin, values.data(), static_cast<size_t>(n) * sizeof(V), cudaMemcpyHostToDevice));
        }
        CK(cudaMalloc(&d_b, static_cast<size_t>(segs) * sizeof(int64_t)));
        CK(cudaMalloc(&d_e, static_cast<size_t>(segs) * sizeof(int64_t)));
        CK(cudaMemcpy(d_b, hb.data(), static_cast<size_t>(segs) * sizeof(int64_t), cudaMemcpyHostToDevice));
        CK(cudaMemcpy(d_e, he.data(), static_cast<size_t>(segs) * sizeof(int64_t), cudaMemcpyHostToDevice));
        Guarded<K> kout(n);
        Guarded<V> vout(n);
        kout.poison();
        vout.poison();
        long long launches = 1;
        if (each)
          run_each(k, d_kin, kout.ptr(), d_vin, k.pairs ? vout.ptr() : nullptr, d_b, d_e, n, segs, desc);
        else
          launches = run_segsort(k, d_kin, kout.ptr(), d_vin, k.pairs ? vout.ptr() : nullptr, d_b, d_e, n, segs,
                                 desc, more_launches);
        std::vector<K> got_k;
        std::vector<V> got_v;
        bool ok = kout.fetch(got_k) && vout.fetch(got_v);
        K poison_k;
        V poison_v;
        std::memset(&poison_k, 0xAB, sizeof poison_k);
        std::memset(&poison_v, 0xAB, sizeof poison_v);
        long long bad = 0, first_bad = -1;
        for (long long i = 0; i < n; ++i)
        {
          const long long from = perm[static_cast<size_t>(i)];
          const K want_k = from < 0 ? poison_k : keys[static_cast<size_t>(from)];
          bool good = same_bytes(got_k[static_cast<size_t>(i)], want_k);
          if (k.pairs)
          {
            const V want_v = from < 0 ? poison_v : values[static_cast<size_t>(from)];
            good = good && same_bytes(got_v[static_cast<size_t>(i)], want_v);
          }
          if (!good && bad++ == 0) first_bad = i;
        }
        char what[256];
        std::snprintf(what, sizeof what,
                      "segsort %s%s %s keys=%s %s n=%lld segs=%lld portion=%lld launches=%lld (%lld wrong, first at %lld)",
                      k.name, each ? " each" : "", lname.c_str(),
                      dist == SegKeys::Random    ? "random"
                      : dist == SegKeys::Few     ? "few"
                      : dist == SegKeys::Same    ? "same"
                      : dist == SegKeys::Sparse  ? "sparse"
                      : dist == SegKeys::LowByte ? "low-byte"
                      : dist == SegKeys::MidByte ? "mid-byte"
                                                 : "high-byte",
                      desc ? "desc" : "asc", n, segs, k.portion(), launches, bad, first_bad);
        record(ok && bad == 0, what);
        CK(cudaFree(d_kin));
        if (d_vin) CK(cudaFree(d_vin));
        CK(cudaFree(d_b));
        CK(cudaFree(d_e));
      }
    }
  }
  std::printf("segsort %-34s done\n", k.name);
}

static void test_segsorts()
{
  using gocccl::detail::radix::NoValues;
  test_segsort(SegsortKernels<unsigned char, unsigned>GOCCCL_SEGSORT_KERNELS(test_segsort_keys_u8, false, 256, 8, 14), 101);
  test_segsort(SegsortKernels<short, unsigned>GOCCCL_SEGSORT_KERNELS(test_segsort_keys_i16, false, 256, 8, 12), 102);
  test_segsort(SegsortKernels<int, unsigned>GOCCCL_SEGSORT_KERNELS(test_segsort_keys_i32, false, 256, 4, 14), 103);
  test_segsort(SegsortKernels<float, unsigned>GOCCCL_SEGSORT_KERNELS(test_segsort_keys_f32, false, 384, 5, 13), 104);
  test_segsort(SegsortKernels<long long, unsigned>GOCCCL_SEGSORT_KERNELS(test_segsort_keys_i64, false, 256, 4, 14), 105);
  test_segsort(SegsortKernels<double, unsigned>GOCCCL_SEGSORT_KERNELS(test_segsort_keys_f64, false, 256, 8, 12), 106);
  test_segsort(
    SegsortKernels<unsigned, unsigned>GOCCCL_SEGSORT_KERNELS(test_segsort_keys_u32_default, false, 256, 8, 29), 107);
  test_segsort(
    SegsortKernels<signed char, unsigned>GOCCCL_SEGSORT_KERNELS(test_segsort_pairs_i8_u32, true, 256, 8, 14), 108);
  test_segsort(
    SegsortKernels<unsigned short, unsigned>GOCCCL_SEGSORT_KERNELS(test_segsort_pairs_u16_u32, true, 256, 4, 12), 109);
  test_segsort(SegsortKernels<float, unsigned>GOCCCL_SEGSORT_KERNELS(test_segsort_pairs_f32_u32, true, 256, 8, 14), 110);
  test_segsort(SegsortKernels<unsigned long long, unsigned long long>GOCCCL_SEGSORT_KERNELS(
                 test_segsort_pairs_u64_u64, true, 256, 4, 14),
               111);
  test_segsort(
    SegsortKernels<int, unsigned>GOCCCL_SEGSORT_KERNELS(test_segsort_pairs_i32_u32_default, true, 256, 8, 29), 112);
}

// ---------------------------------------------------------------------------
// Merge and merge sort: the Go runtime's dispatch, each with the partition
// kernel(s) and with null splits (the self-search), at tile counts 1, 2, 3,
// one wave of resident blocks and one tile more, and others.

// One wave of fn's blocks of `threads` (runtime/gpu.go's boundKernels.wave).
template <typename F>
static long long wave_of(F fn, int threads)
{
  int occupancy = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occupancy, fn, threads, 0));
  return static_cast<long long>(std::max(1, occupancy)) * g_sms;
}

// ByHigh-sorted keys: high halves in [0, distinct) (offset by `base`), low
// halves random (they are what stability orders).
static std::vector<uint32_t> merge_keys(long long n, uint32_t distinct, uint32_t base, uint32_t stride, uint64_t& seed)
{
  std::vector<uint32_t> v(static_cast<size_t>(n));
  for (auto& x : v)
  {
    const uint32_t r = static_cast<uint32_t>(splitmix64(seed));
    x = ((base + (r >> 16) % distinct * stride) << 16) | (r & 0xFFFFu);
  }
  std::stable_sort(v.begin(), v.end(), ByHigh{});
  return v;
}

struct MergeKernels
{
  const char* name;
  void (*tiles)(const uint32_t*, long long, const uint32_t*, long long, uint32_t*, const int64_t*);
  void (*partition)(const uint32_t*, long long, const uint32_t*, long long, int64_t*, long long);
  int threads, items;
};

// Merges a and b as runtime.MergeOp does (search: null splits, no partition)
// into a poisoned, guarded output; false when a guard was overwritten.
static bool run_merge(const MergeKernels& k, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
                      bool search, std::vector<uint32_t>& got)
{
  const long long na = static_cast<long long>(a.size()), nb = static_cast<long long>(b.size()), n = na + nb;
  const long long tile = static_cast<long long>(k.threads) * k.items, tiles = (n + tile - 1) / tile;
  Guarded<uint32_t> da(na), db(nb), out(n);
  Guarded<int64_t> splits(tiles + 1);
  if (na) CK(cudaMemcpy(da.ptr(), a.data(), a.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
  if (nb) CK(cudaMemcpy(db.ptr(), b.data(), b.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
  out.poison();
  splits.poison();
  if (n > 0)
  {
    if (!search && tiles > 1)
      k.partition<<<static_cast<unsigned>((tiles + k.threads) / k.threads), k.threads>>>(da.ptr(), na, db.ptr(), nb,
                                                                                           splits.ptr(), tiles);
    k.tiles<<<static_cast<unsigned>(tiles), k.threads>>>(da.ptr(), na, db.ptr(), nb, out.ptr(),
                                                           search || tiles == 1 ? nullptr : splits.ptr());
  }
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  return out.fetch(got);
}

static void test_merge(const MergeKernels& k, bool quick, uint64_t seed)
{
  const long long tile = static_cast<long long>(k.threads) * k.items;
  const long long wave = wave_of(k.tiles, k.threads);
  std::vector<long long> totals = {0, 1, 2, tile - 1, tile, tile + 1, 2 * tile, 2 * tile + 1, 3 * tile - 1,
                                   3 * tile, 7 * tile + 5, wave * tile - 1, wave * tile, wave * tile + 1,
                                   (wave + 1) * tile + 1};
  if (!quick) totals.push_back(3 * wave * tile + 17);
  for (long long total : totals)
  {
    if (quick && total > 4000000) continue;
    // How total splits between a and b, and how their keys relate.
    enum Layout { Random, FewKeys, AllABeforeB, AllBBeforeA, Interleaved, OnlyA, OnlyB, OneA, OneB };
    for (int layout = Random; layout <= OneB; ++layout)
    {
      long long na = total / 2;
      if (layout == Random || layout == FewKeys) na = total ? static_cast<long long>(splitmix64(seed) % (total + 1)) : 0;
      if (layout == OnlyA) na = total;
      if (layout == OnlyB) na = 0;
      if (layout == OneA) na = std::min<long long>(1, total);
      if (layout == OneB) na = total - std::min<long long>(1, total);
      const long long nb = total - na;
      std::vector<uint32_t> a, b;
      switch (layout)
      {
        case AllABeforeB: a = merge_keys(na, 100, 0, 1, seed), b = merge_keys(nb, 100, 100, 1, seed); break;
        case AllBBeforeA: a = merge_keys(na, 100, 100, 1, seed), b = merge_keys(nb, 100, 0, 1, seed); break;
        case Interleaved: a = merge_keys(na, 30000, 0, 2, seed), b = merge_keys(nb, 30000, 1, 2, seed); break;
        case FewKeys: a = merge_keys(na, 3, 0, 1, seed), b = merge_keys(nb, 3, 0, 1, seed); break;
        default: a = merge_keys(na, 1000, 0, 1, seed), b = merge_keys(nb, 1000, 0, 1, seed); break;
      }
      std::vector<uint32_t> want(static_cast<size_t>(total));
      std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin(), ByHigh{});
      for (bool search : {true, false})
      {
        std::vector<uint32_t> got;
        const bool guards = run_merge(k, a, b, search, got);
        long long bad = -1;
        for (long long i = 0; i < total && bad < 0; ++i)
          if (got[i] != want[i]) bad = i;
        char what[200];
        std::snprintf(what, sizeof what, "merge %s %s: na=%lld nb=%lld layout %d (tile %lld, wave %lld): %s%s", k.name,
                      search ? "self-searched" : "partitioned", na, nb, layout, tile, wave,
                      bad >= 0 ? ("first difference at " + std::to_string(bad)).c_str() : "",
                      guards ? "" : " wrote outside the output");
        record(bad < 0 && guards, what);
      }
    }
  }
}

struct MergeSortKernels
{
  const char* name;
  void (*block)(uint32_t*, void*, long long, long long);
  void (*partition)(const uint32_t*, void*, long long, void*, long long, long long);
  void (*merge)(uint32_t*, void*, long long, void*, long long, long long);
  void (*pairs_block)(uint32_t*, uint32_t*, void*, void*, long long, long long);
  void (*pairs_merge)(uint32_t*, uint32_t*, void*, void*, long long, void*, long long, long long);
  void (*single)(const uint32_t*, uint32_t*, long long);
  void (*pairs_single)(const uint32_t*, const uint32_t*, uint32_t*, uint32_t*, long long);
  int threads, items;
};

// Sorts keys (and vals, when pairs) in place as runtime/mergesort.go's
// mergeSortGPU does (one tile: the single kernel; search: null partitions,
// no partition launches), with poisoned scratch; false when a guard was
// overwritten.
static bool run_merge_sort(const MergeSortKernels& k, bool pairs, bool search, std::vector<uint32_t>& keys,
                           std::vector<uint32_t>& vals)
{
  const long long n = static_cast<long long>(keys.size());
  const long long tile = static_cast<long long>(k.threads) * k.items, tiles = (n + tile - 1) / tile;
  Guarded<uint32_t> dk(n), dv(n), tk(n), tv(n);
  Guarded<int64_t> parts(tiles + 1);
  for (auto* g : {&dk, &dv, &tk, &tv}) g->poison();
  parts.poison();
  if (n) CK(cudaMemcpy(dk.ptr(), keys.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
  if (n && pairs) CK(cudaMemcpy(dv.ptr(), vals.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
  int passes = 0;
  while ((1ll << passes) < tiles) ++passes;
  if (n >= 2 && tiles == 1)
  {
    if (pairs) k.pairs_single<<<1, k.threads>>>(dk.ptr(), dv.ptr(), dk.ptr(), dv.ptr(), n);
    else k.single<<<1, k.threads>>>(dk.ptr(), dk.ptr(), n);
  }
  else if (n >= 2)
  {
    bool in_tmp = passes % 2 == 1;
    const unsigned grid = static_cast<unsigned>(tiles);
    if (pairs) k.pairs_block<<<grid, k.threads>>>(dk.ptr(), dv.ptr(), tk.ptr(), tv.ptr(), n, in_tmp);
    else k.block<<<grid, k.threads>>>(dk.ptr(), tk.ptr(), n, in_tmp);
    for (int p = 0; p < passes; ++p, in_tmp = !in_tmp)
    {
      const long long merged = 2ll << p;
      void* d_parts = search ? nullptr : parts.ptr();
      if (!search)
        k.partition<<<static_cast<unsigned>((tiles + 1 + k.threads - 1) / k.threads), k.threads>>>(
          dk.ptr(), tk.ptr(), n, d_parts, in_tmp, merged);
      if (pairs) k.pairs_merge<<<grid, k.threads>>>(dk.ptr(), dv.ptr(), tk.ptr(), tv.ptr(), n, d_parts, in_tmp, merged);
      else k.merge<<<grid, k.threads>>>(dk.ptr(), tk.ptr(), n, d_parts, in_tmp, merged);
    }
  }
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<uint32_t> tmp;
  std::vector<int64_t> splits;
  bool guards = dk.fetch(keys) && tk.fetch(tmp) && parts.fetch(splits);
  if (pairs) guards = dv.fetch(vals) && tv.fetch(tmp) && guards;
  return guards;
}

static void test_merge_sort(const MergeSortKernels& k, bool quick, uint64_t seed)
{
  const long long tile = static_cast<long long>(k.threads) * k.items;
  const long long wave_keys = wave_of(k.merge, k.threads), wave_pairs = wave_of(k.pairs_merge, k.threads);
  std::vector<long long> sizes = {0, 1, 2, tile - 1, tile, tile + 1, 2 * tile + 1, 3 * tile, 8 * tile, 37 * tile - 1,
                                  wave_keys * tile, wave_keys * tile + 1, wave_pairs * tile, wave_pairs * tile + 1};
  // The edges of the single kernel's smaller tiles (MergeSortSingleItems).
  for (long long items : {2, 4, 8})
    for (long long n : {k.threads * items - 1, k.threads * items, k.threads * items + 1})
      if (items < k.items && n > 2) sizes.push_back(n);
  if (!quick) sizes.push_back(1000003);
  for (long long n : sizes)
  {
    if (quick && n > 3000000) continue;
    for (uint32_t distinct : {1u, 3u, 65536u})
    {
      std::vector<uint32_t> in(static_cast<size_t>(n));
      for (auto& x : in)
      {
        const uint32_t r = static_cast<uint32_t>(splitmix64(seed));
        x = (((r >> 16) % distinct) << 16) | (r & 0xFFFFu);
      }
      std::vector<uint32_t> want_keys = in;
      std::stable_sort(want_keys.begin(), want_keys.end(), ByHigh{});
      std::vector<uint32_t> want_vals(static_cast<size_t>(n));
      for (size_t i = 0; i < want_vals.size(); ++i) want_vals[i] = static_cast<uint32_t>(i);
      std::stable_sort(want_vals.begin(), want_vals.end(), [&](uint32_t x, uint32_t y) { return ByHigh{}(in[x], in[y]); });
      for (bool pairs : {false, true})
      {
        for (bool search : {true, false})
        {
          std::vector<uint32_t> keys = in, vals(static_cast<size_t>(n));
          for (size_t i = 0; i < vals.size(); ++i) vals[i] = static_cast<uint32_t>(i);
          const bool guards = run_merge_sort(k, pairs, search, keys, vals);
          const bool ok = keys == want_keys && (!pairs || vals == want_vals);
          char what[200];
          std::snprintf(what, sizeof what, "merge sort %s %s %s: n=%lld, %u distinct (tile %lld, wave %lld)%s%s", k.name,
                        pairs ? "pairs" : "keys", search ? "self-searched" : "partitioned", n, distinct, tile,
                        pairs ? wave_pairs : wave_keys, ok ? "" : ": differs from std::stable_sort",
                        guards ? "" : ": wrote outside its buffers");
          record(ok && guards, what);
        }
      }
    }
  }
}

static void test_merges(bool quick)
{
  test_merge(MergeKernels{"u32_256x15", test_merge_u32_tiles, test_merge_u32_partition, 256, 15}, quick, 201);
  test_merge(MergeKernels{"u32_32x5", test_merge_u32_32x5_tiles, test_merge_u32_32x5_partition, 32, 5}, quick, 202);
#define GOCCCL_MERGE_SORT_KERNELS(NAME, BT, IPT) \
  {#NAME, NAME##_block, NAME##_partition, NAME##_merge, NAME##_pairs_block, NAME##_pairs_merge, \
   NAME##_single, NAME##_pairs_single, BT, IPT}
  test_merge_sort(MergeSortKernels GOCCCL_MERGE_SORT_KERNELS(test_merge_sort_u32, 256, 17), quick, 203);
  test_merge_sort(MergeSortKernels GOCCCL_MERGE_SORT_KERNELS(test_merge_sort_u32_64x3, 64, 3), quick, 204);
  test_merge_sort(MergeSortKernels GOCCCL_MERGE_SORT_KERNELS(test_merge_sort_u32_32x3, 32, 3), quick, 205);
#undef GOCCCL_MERGE_SORT_KERNELS
}

int main(int argc, char** argv)
{
  bool quick = false, large = true;
  const char* only = nullptr;
  for (int i = 1; i < argc; ++i)
  {
    if (!std::strcmp(argv[i], "--quick")) quick = true, large = false;
    else if (!std::strcmp(argv[i], "--no-large")) large = false;
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else
    {
      std::fprintf(stderr, "usage: %s [--quick] [--no-large] [--only reduce|transform|adjacent|segsort|merge|large]\n",
                   argv[0]);
      return 2;
    }
  }
  auto part = [&](const char* name) { return only == nullptr || !std::strcmp(only, name); };
  int dev = 0;
  CK(cudaGetDevice(&dev));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, dev));
  CK(cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, dev));
  std::printf("device %d: %s, sm_%d%d, %d SMs, %.1f GiB\n", dev, prop.name, prop.major, prop.minor, g_sms,
              prop.totalGlobalMem / 1073741824.0);

  // Reductions.
  if (part("reduce"))
  {
    ReduceKernels<int> k{"sum_i32", test_reduce_sum_i32_partial, test_reduce_sum_i32_final, test_reduce_sum_i32_sweep, 256, 16};
    test_reduce<int, SumI32, Check::Exact>(k, sizes_for(4096, quick), 0, 1);
    test_reduce<int, SumI32, Check::Exact>(k, sizes_for(4096, true), 1, 2); // misaligned: per-item path
  }
  {
    ReduceKernels<int> k{"sum_i32_96x7", test_reduce_sum_i32_odd_partial, test_reduce_sum_i32_odd_final, test_reduce_sum_i32_odd_sweep, 96, 7};
    test_reduce<int, SumI32, Check::Exact>(k, sizes_for(96 * 7, true), 0, 3);
  }
  {
    ReduceKernels<unsigned long long> k{"sum_u64", test_reduce_sum_u64_partial, test_reduce_sum_u64_final, test_reduce_sum_u64_sweep, 256, 8};
    test_reduce<unsigned long long, SumU64, Check::Exact>(k, sizes_for(2048, quick), 0, 4);
  }
  {
    ReduceKernels<float> k{"sum_f32", test_reduce_sum_f32_partial, test_reduce_sum_f32_final, test_reduce_sum_f32_sweep, 256, 16};
    test_reduce<float, SumF32, Check::FloatSum>(k, sizes_for(4096, quick), 0, 5);
  }
  {
    ReduceKernels<double> k{"max_f64", test_reduce_max_f64_partial, test_reduce_max_f64_final, test_reduce_max_f64_sweep, 256, 8};
    const double big = 3e6; // above every random item: must come from the tail
    test_reduce<double, MaxF64, Check::Exact>(k, sizes_for(2048, quick), 0, 6, &big);
    test_reduce<double, MaxF64, Check::Exact>(k, sizes_for(2048, true), 1, 7); // 8 B aligned only
  }
  {
    ReduceKernels<signed char> k{"min_i8", test_reduce_min_i8_partial, test_reduce_min_i8_final, test_reduce_min_i8_sweep, 256, 32};
    const signed char low = -120;
    test_reduce<signed char, MinI8, Check::Exact>(k, sizes_for(8192, quick), 0, 8, &low);
    test_reduce<signed char, MinI8, Check::Exact>(k, sizes_for(8192, true), 3, 9, &low);
  }
  {
    ReduceKernels<unsigned char> k{"xor_u8", test_reduce_xor_u8_partial, test_reduce_xor_u8_final, test_reduce_xor_u8_sweep, 256, 32};
    test_reduce<unsigned char, XorU8, Check::Exact>(k, sizes_for(8192, quick), 0, 10);
  }
  {
    ReduceKernels<int> k{"maxabs_i32", test_reduce_maxabs_i32_partial, test_reduce_maxabs_i32_final, test_reduce_maxabs_i32_sweep, 256, 16};
    const int big = -2147483600; // |big| above every other |item| but in range
    test_reduce<int, MaxAbsI32, Check::Exact>(k, sizes_for(4096, quick), 0, 11, &big);
  }
  {
    ReduceKernels<MinMax> k{"minmax_struct8", test_reduce_minmax_s8_partial, test_reduce_minmax_s8_final, test_reduce_minmax_s8_sweep, 256, 8};
    test_reduce<MinMax, MinMaxOp, Check::Exact>(k, sizes_for(2048, quick), 0, 12);
    test_reduce<MinMax, MinMaxOp, Check::Exact>(k, sizes_for(2048, true), 1, 13); // 8 B offset: per-item path
  }
  {
    ReduceKernels<Vec3> k{"sum_vec3_struct12", test_reduce_sum_vec3_partial, test_reduce_sum_vec3_final, test_reduce_sum_vec3_sweep, 256, 2};
    test_reduce<Vec3, SumVec3, Check::Exact>(k, sizes_for(512, quick), 0, 14);
  }

  // Transforms.
  if (part("transform"))
  {
    test_transform<signed char, float, I8ToF32>("i8_f32", test_transform_i8_f32, 256, 8, sizes_for(2048, quick), 0,
                                                false, 20);
    test_transform<signed char, float, I8ToF32>("i8_f32", test_transform_i8_f32, 256, 8, sizes_for(2048, true), 1,
                                                false, 21); // misaligned: per-item path
    test_transform<signed char, float, I8ToF32>("i8_f32_64x3", test_transform_i8_f32_odd, 64, 3, sizes_for(192, true),
                                                0, false, 22);
    test_transform<int, long long, I32ToI64>("i32_i64", test_transform_i32_i64, 256, 4, sizes_for(1024, quick), 0,
                                             false, 23);
    test_transform<int, int, I32Affine>("i32_i32", test_transform_i32_i32, 256, 8, sizes_for(2048, quick), 0, true,
                                        24);
    test_transform<int, Vec3, I32ToVec3>("i32_vec3", test_transform_i32_vec3, 256, 1, sizes_for(256, quick), 0, false,
                                         25);
    test_transform<signed char, signed char, I8Inc>("i8_i8", test_transform_i8_i8, 256, 32, sizes_for(8192, quick), 0,
                                                    false, 26);
    test_transform2<float, short, double, F32MulI16ToF64>("f32_i16_f64", test_transform2_f32_i16_f64, 256, 4,
                                                          sizes_for(1024, quick), 0, 27);
    test_transform2<float, short, double, F32MulI16ToF64>("f32_i16_f64", test_transform2_f32_i16_f64, 256, 4,
                                                          sizes_for(1024, true), 1, 28);
    test_transform2<unsigned char, unsigned char, unsigned short, U8MulU8ToU16>(
      "u8_u8_u16", test_transform2_u8_u8_u16, 256, 16, sizes_for(4096, quick), 0, 29);
    test_transform2<long long, float, float, I64SubF32ToF32>("i64_f32_f32", test_transform2_i64_f32_f32, 256, 4,
                                                             sizes_for(1024, quick), 0, 30);
  }

  // Adjacent differences: pointers (aligned, offset by an item) and an iterator.
  if (part("adjacent")) test_adjacents(quick);

  // Segmented sorts over many Onesweep portions (small PORTION_BITS).
  if (part("segsort")) test_segsorts();

  // Merge and the merge sorts, with the partition kernels and self-searched.
  if (part("merge")) test_merges(quick);

  if (large && part("large"))
  {
    size_t free_b = 0, total_b = 0;
    CK(cudaMemGetInfo(&free_b, &total_b));
    if (free_b > (6ull << 30)) test_large();
    else std::printf("skipping large cases: %.1f GiB free\n", free_b / 1073741824.0);
  }

  std::printf("kernels_test: %d passed, %d failed\n", g_checks - g_failures, g_failures);
  return g_failures ? 1 : 0;
}
