/*
 * gocccl/for_each.cuh: data[i] = op(data[i]) in place; the kernel side of
 * runtime.ForEach. Grid ceil(n / TILE); block b owns items [b * TILE,
 * (b + 1) * TILE) striped over its threads (coalesced). Loads are plain (not
 * the read-only path: the kernel writes the buffer it reads), all issued
 * before any store.
 *
 * Requirements: T trivially copyable; UnaryOp default-constructible,
 * `T operator()(T) const`. Launch with blockDim.x == BLOCK_THREADS.
 */
#pragma once

#include <gocccl/config.cuh>

namespace gocccl {

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename UnaryOp>
__device__ void for_each(T* d_data, long long n)
{
  constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
  const long long base = static_cast<long long>(blockIdx.x) * TILE + threadIdx.x;
  UnaryOp op;
  T items[ITEMS_PER_THREAD];
#pragma unroll
  for (int j = 0; j < ITEMS_PER_THREAD; ++j)
  {
    const long long i = base + j * BLOCK_THREADS;
    if (i < n)
    {
      items[j] = detail::load_item<false>(d_data + i);
    }
  }
#pragma unroll
  for (int j = 0; j < ITEMS_PER_THREAD; ++j)
  {
    const long long i = base + j * BLOCK_THREADS;
    if (i < n)
    {
      d_data[i] = op(items[j]);
    }
  }
}

} // namespace gocccl
