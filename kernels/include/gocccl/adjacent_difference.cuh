/*
 * gocccl/adjacent_difference.cuh: out[i] = op(in[i], in[i-1]) with out[0] =
 * in[0] (left), or out[i] = op(in[i], in[i+1]) with out[n-1] = in[n-1]
 * (right); the kernel side of runtime.AdjacentDifference. The argument order
 * is cub::DeviceAdjacentDifference's: SubtractLeftCopy assigns
 * difference_op(*i, *(i - 1)), SubtractRightCopy difference_op(*i, *(i + 1)).
 *
 *   <sym>_left   adjacent_difference_left   grid ceil(n / TILE)
 *   <sym>_right  adjacent_difference_right  grid ceil(n / TILE)
 *
 * Block b owns items [b * TILE, (b + 1) * TILE), striped over its threads
 * (item j * BLOCK_THREADS + tid), so every load and store is coalesced; the
 * neighbour loads hit the lines the block's own loads bring in, except one
 * item at the tile's edge. All loads of a thread are issued before it
 * computes. Input and output must not overlap (the runtime checks this).
 *
 * Requirements: T trivially copyable; DifferenceOp default-constructible,
 * `T operator()(T, T) const`. Launch with blockDim.x == BLOCK_THREADS.
 */
#pragma once

#include <gocccl/config.cuh>
#include <gocccl/transform_reduce.cuh>

namespace gocccl {
namespace detail {

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, bool LEFT, typename T, typename DifferenceOp, typename InputIt>
GOCCCL_DEVICE void adjacent_difference_tile(InputIt d_in, T* d_out, long long n)
{
  constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
  const long long base = static_cast<long long>(blockIdx.x) * TILE + threadIdx.x;
  DifferenceOp op;
  T cur[ITEMS_PER_THREAD], nb[ITEMS_PER_THREAD];
#pragma unroll
  for (int j = 0; j < ITEMS_PER_THREAD; ++j)
  {
    const long long i = base + j * BLOCK_THREADS;
    if (i < n)
    {
      cur[j] = read_item(d_in, i);
      const bool edge = LEFT ? i == 0 : i == n - 1;
      if (!edge)
      {
        nb[j] = read_item(d_in, LEFT ? i - 1 : i + 1);
      }
    }
  }
#pragma unroll
  for (int j = 0; j < ITEMS_PER_THREAD; ++j)
  {
    const long long i = base + j * BLOCK_THREADS;
    if (i < n)
    {
      const bool edge = LEFT ? i == 0 : i == n - 1;
      d_out[i] = edge ? cur[j] : op(cur[j], nb[j]);
    }
  }
}

} // namespace detail

/// out[0] = in[0], out[i] = op(in[i], in[i-1]) over the block's tile.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename DifferenceOp, typename InputIt>
__device__ void adjacent_difference_left(InputIt d_in, T* d_out, long long n)
{
  detail::adjacent_difference_tile<BLOCK_THREADS, ITEMS_PER_THREAD, true, T, DifferenceOp>(d_in, d_out, n);
}

/// out[n-1] = in[n-1], out[i] = op(in[i], in[i+1]) over the block's tile.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename DifferenceOp, typename InputIt>
__device__ void adjacent_difference_right(InputIt d_in, T* d_out, long long n)
{
  detail::adjacent_difference_tile<BLOCK_THREADS, ITEMS_PER_THREAD, false, T, DifferenceOp>(d_in, d_out, n);
}

} // namespace gocccl
