/*
 * gocccl/find.cuh: the index of the first item where a predicate holds (the
 * kernel side of runtime.FindIf; cub::DeviceFind::FindIf of CCCL 3.1), in one
 * launch with early exit.
 *
 *   <sym>_sweep  find_if  grid G, 1 <= G <= max(1, ceil(n / TILE)):
 *                block b walks tiles b, b + G, b + 2G, ... in increasing
 *                order. Before each tile it reads the first hit found so far
 *                (a word in the stream's scratch) and stops when the hit lies
 *                before the tile: no later tile of the block can hold the
 *                first hit. A tile with a hit gives its first one to an
 *                atomic max of n - index (so the scratch's zero means "none")
 *                and ends the block's walk. The last block to finish (counted
 *                after a memory fence, as in reduce.cuh) writes the index, or
 *                n when no item matched, and zeroes the scratch again.
 *
 * So a hit at index i costs about the tiles that start before i plus one wave
 * of resident blocks, not a read of the input. The predicate may be called on
 * items past the first hit (the tile holding it is evaluated whole, and
 * blocks of the first wave run concurrently), never outside d_in[0:n].
 *
 * Scratch (16 bytes, zero at launch and again at the end): a 32-bit counter
 * of finished blocks at byte 0, the 64-bit found word at byte 8.
 *
 * Requirements: T trivially copyable; Pred default-constructible with
 * `bool operator()(T) const`. Launch with blockDim.x == BLOCK_THREADS.
 */
#pragma once

#include <gocccl/config.cuh>
#include <gocccl/transform_reduce.cuh>

#include <cub/block/block_reduce.cuh>

#include <type_traits>

namespace gocccl {
namespace detail {

/// The smaller of two 64-bit indices.
struct MinIndex
{
  GOCCCL_DEVICE long long operator()(const long long& a, const long long& b) const { return b < a ? b : a; }
};

/// The scratch of find_if.
struct FindScratch
{
  static GOCCCL_DEVICE unsigned int* counter(void* s) { return static_cast<unsigned int*>(s); }
  static GOCCCL_DEVICE unsigned long long* found(void* s)
  {
    return reinterpret_cast<unsigned long long*>(static_cast<char*>(s) + 8);
  }
};

} // namespace detail

/**
 * \brief d_out[0] = the least i < n with pred(d_in[i]), or n when there is
 * none (n == 0 included).
 *
 * \param d_in       input, n items (a pointer or an iterator of iterator.cuh)
 * \param n          item count, n >= 0
 * \param d_out      output, one int64
 * \param d_scratch  FindScratch, 16 bytes, zero at launch (zero again after)
 *
 * Launch: 1 <= gridDim.x; blocks beyond the last tile only count themselves.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Pred, typename InputIt>
__device__ void find_if(InputIt d_in, long long n, int64_t* d_out, void* d_scratch)
{
  constexpr long long TILE = static_cast<long long>(BLOCK_THREADS) * ITEMS_PER_THREAD;
  constexpr long long NONE = 0x7fffffffffffffffLL;
  using BlockReduceT = cub::BlockReduce<long long, BLOCK_THREADS, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
  __shared__ typename BlockReduceT::TempStorage temp;
  __shared__ bool last;

  using Scratch = detail::FindScratch;
  volatile unsigned long long* found = Scratch::found(d_scratch);
  Pred pred;
  const int tid = threadIdx.x;

  for (long long tile = blockIdx.x; tile * TILE < n; tile += gridDim.x)
  {
    const long long base = tile * TILE;
    // Stop once a hit lies before this tile (found holds n - index).
    if (__syncthreads_or(tid == 0 && *found > static_cast<unsigned long long>(n - base)))
    {
      break;
    }
    long long hit = NONE;
    if (base + TILE <= n)
    {
      bool flags[ITEMS_PER_THREAD];
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        flags[i] = pred(detail::read_item(d_in, base + i * BLOCK_THREADS + tid));
      }
#pragma unroll
      for (int i = ITEMS_PER_THREAD - 1; i >= 0; --i)
      {
        if (flags[i])
        {
          hit = base + i * BLOCK_THREADS + tid;
        }
      }
    }
    else
    {
#pragma unroll
      for (int i = ITEMS_PER_THREAD - 1; i >= 0; --i)
      {
        const long long idx = base + i * BLOCK_THREADS + tid;
        if (idx < n && pred(detail::read_item(d_in, idx)))
        {
          hit = idx;
        }
      }
    }
    if (__syncthreads_or(hit != NONE))
    {
      const long long first = BlockReduceT(temp).Reduce(hit, detail::MinIndex());
      if (tid == 0)
      {
        atomicMax(Scratch::found(d_scratch), static_cast<unsigned long long>(n - first));
      }
      break; // the block's later tiles come after this hit
    }
  }

  // Last block finishes.
  __syncthreads();
  if (tid == 0)
  {
    __threadfence(); // this block's hit is visible before its count
    const unsigned int done = atomicAdd(Scratch::counter(d_scratch), 1u);
    last = done == gridDim.x - 1;
  }
  __syncthreads();
  if (last && tid == 0)
  {
    __threadfence();
    const unsigned long long f = *found;
    d_out[0] = static_cast<int64_t>(f == 0 ? n : n - static_cast<long long>(f));
    *found = 0ull;
    *Scratch::counter(d_scratch) = 0u;
  }
}

} // namespace gocccl
