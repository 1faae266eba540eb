/*
 * gocccl/transform_if.cuh: the kernel side of runtime.TransformIf
 * (thrust::transform_if):
 *
 *   transform_if  d_out[i] = op(d_in[i]) for i in [0, n) where pred(d_in[i]);
 *                 every other d_out[i] is left as it is (never written)
 *
 * Launch: gridDim.x = ceil(n / TILE), TILE = BLOCK_THREADS * ITEMS_PER_THREAD,
 * n >= 1 (the host skips the launch for n == 0); block b handles tile b.
 * Item i of the tile belongs to thread i % BLOCK_THREADS (coalesced loads and
 * stores); a thread loads all its items before the first predicate. Loads
 * are plain (not ld.global.nc), so d_out may be d_in itself (in place);
 * partial overlap is not allowed.
 *
 * Requirements: In, Out trivially copyable; Op default-constructible with
 * `Out operator()(In) const`, Pred with `bool operator()(In) const`. Launch
 * with blockDim.x == BLOCK_THREADS. Compiles with CUB 1.17 (CUDA 11.8) and
 * CCCL 3 (CUDA 13): only config.cuh.
 */
#pragma once

#include <gocccl/config.cuh>

#include <type_traits>

namespace gocccl {

/**
 * \brief d_out[i] = op(d_in[i]) where pred(d_in[i]), for i in [0, n).
 *
 * \param d_in   input, n items: a const In* or an iterator of iterator.cuh
 * \param d_out  output, n items: an Out* or an output iterator
 * \param n      item count, n >= 1
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename In, typename Out, typename Op, typename Pred,
          typename InputIt, typename OutputIt>
__device__ void transform_if(InputIt d_in, OutputIt d_out, long long n)
{
  static_assert(BLOCK_THREADS > 0 && BLOCK_THREADS % 32 == 0 && BLOCK_THREADS <= 1024,
                "gocccl::transform_if: BLOCK_THREADS must be a multiple of 32 in [32, 1024]");
  static_assert(ITEMS_PER_THREAD > 0, "gocccl::transform_if: ITEMS_PER_THREAD must be positive");
  constexpr long long TILE = static_cast<long long>(BLOCK_THREADS) * ITEMS_PER_THREAD;
  // At most 16 items in registers at once: small items' policies hold 32.
  constexpr int GROUP = ITEMS_PER_THREAD < 16 ? ITEMS_PER_THREAD : 16;
  const long long first = static_cast<long long>(blockIdx.x) * TILE + threadIdx.x;
  if (first - threadIdx.x >= n)
  {
    return;
  }
  Op op;
  Pred pred;
#pragma unroll
  for (int g = 0; g < ITEMS_PER_THREAD; g += GROUP)
  {
    In items[GROUP];
#pragma unroll
    for (int k = 0; k < GROUP; ++k)
    {
      const long long i = first + static_cast<long long>(g + k) * BLOCK_THREADS;
      if (g + k < ITEMS_PER_THREAD && i < n)
      {
        if constexpr (std::is_pointer<InputIt>::value)
        {
          items[k] = detail::load_item<false>(d_in + i);
        }
        else
        {
          items[k] = d_in[i];
        }
      }
    }
#pragma unroll
    for (int k = 0; k < GROUP; ++k)
    {
      const long long i = first + static_cast<long long>(g + k) * BLOCK_THREADS;
      if (g + k < ITEMS_PER_THREAD && i < n && pred(items[k]))
      {
        d_out[i] = op(items[k]);
      }
    }
  }
}

} // namespace gocccl
