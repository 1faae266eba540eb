// radix_order_sass.cu: the onesweep kernels of the generator's radix sort
// policies (uint32/float32 keys 384 x 20 at 3 blocks, uint64/float64 keys
// 384 x 15 at 3, pairs uint32/uint32 384 x 18 at 3, pairs uint64/uint32
// 384 x 15 at 2) in each order variant of Onesweep::run_in_order, for
// reading their SASS and ptxas' report side by side (radix_order_sass.sh);
// never launched. Kernel names: os_<case>_<variant>, variant rt (the
// run-time flip: today's kernel), asc and desc (the order compiled in) and
// dual (Onesweep::run with GOCCCL_EXPERIMENT_RADIX_ORDER: both orders, one
// uniform branch). Compile with -DGOCCCL_EXPERIMENT_RADIX_ORDER.
#ifndef GOCCCL_EXPERIMENT_RADIX_ORDER
#error "radix_order_sass.cu: compile with -DGOCCCL_EXPERIMENT_RADIX_ORDER (its dual kernels)"
#endif
#include <gocccl/radix_sort.cuh>

#include <stdint.h>

namespace
{
using gocccl::detail::radix::NoValues;
template <int T, int I, typename K, typename V>
using Agent = gocccl::detail::radix::Onesweep<T, I, K, V>;

// ORDER -1, 0, 1: run_in_order<ORDER>; 2: run (both orders).
template <int T, int I, typename K, typename V, int ORDER>
__device__ __forceinline__ void body(const K* ki, K* ko, const V* vi, V* vo, long long n, void* s, long long q,
                                     long long b, long long e, bool d)
{
  using A = Agent<T, I, K, V>;
  __shared__ typename A::TempStorage temp;
  if constexpr (ORDER == 2) A::run(temp, ki, ko, vi, vo, n, s, q, b, e, d);
  else A::template run_in_order<ORDER>(temp, ki, ko, vi, vo, n, s, q, b, e, d);
}
} // namespace

#define OS_KEYS(NAME, T, I, MINB, K, VARIANT, ORDER)                                                              \
  extern "C" __global__ void __launch_bounds__(T, MINB)                                                          \
    os_##NAME##_##VARIANT(const K* ki, K* ko, long long n, void* s, long long q, long long b, long long e, bool d) \
  {                                                                                                              \
    body<T, I, K, NoValues, ORDER>(ki, ko, nullptr, nullptr, n, s, q, b, e, d);                                  \
  }
#define OS_PAIRS(NAME, T, I, MINB, K, V, VARIANT, ORDER)                                                          \
  extern "C" __global__ void __launch_bounds__(T, MINB) os_##NAME##_##VARIANT(                                   \
    const K* ki, K* ko, const V* vi, V* vo, long long n, void* s, long long q, long long b, long long e, bool d)  \
  {                                                                                                              \
    body<T, I, K, V, ORDER>(ki, ko, vi, vo, n, s, q, b, e, d);                                                   \
  }
#define OS_ALL_KEYS(NAME, T, I, MINB, K)                                                                          \
  OS_KEYS(NAME, T, I, MINB, K, rt, -1)                                                                           \
  OS_KEYS(NAME, T, I, MINB, K, asc, 0) OS_KEYS(NAME, T, I, MINB, K, desc, 1) OS_KEYS(NAME, T, I, MINB, K, dual, 2)
#define OS_ALL_PAIRS(NAME, T, I, MINB, K, V)                                                                      \
  OS_PAIRS(NAME, T, I, MINB, K, V, rt, -1)                                                                       \
  OS_PAIRS(NAME, T, I, MINB, K, V, asc, 0)                                                                       \
  OS_PAIRS(NAME, T, I, MINB, K, V, desc, 1) OS_PAIRS(NAME, T, I, MINB, K, V, dual, 2)

OS_ALL_KEYS(keys_uint32, 384, 20, 3, uint32_t)
OS_ALL_KEYS(keys_float32, 384, 20, 3, float)
OS_ALL_KEYS(keys_uint64, 384, 15, 3, uint64_t)
OS_ALL_KEYS(keys_float64, 384, 15, 3, double)
OS_ALL_PAIRS(pairs_uint32_uint32, 384, 18, 3, uint32_t, uint32_t)
OS_ALL_PAIRS(pairs_uint64_uint32, 384, 15, 2, uint64_t, uint32_t)
