/*
 * gocccl/merge.cuh: stable device-wide merge of two sorted sequences by
 * merge-path partitioning (the kernel side of runtime.Merge; cub::DeviceMerge
 * in CCCL 3, agent_merge.cuh).
 *
 *   <sym>_partition  one thread per tile boundary t in [0, tiles]: the
 *                    merge path of diagonal min(t * TILE, n_a + n_b), i.e.
 *                    how many of the first outputs come from d_a, into
 *                    d_splits[t].
 *   <sym>_tiles      grid = tiles: block t loads its TILE inputs (the
 *                    d_a and d_b ranges between its two splits) into shared
 *                    memory, each thread finds its own diagonal there and
 *                    merges ITEMS_PER_THREAD outputs serially, and the block
 *                    writes the tile back coalesced through shared memory.
 *                    A grid of one tile reads no splits (the host launches
 *                    no partition then).
 *
 * Stability: at equal keys (neither less(a, b) nor less(b, a)) items of d_a
 * come first, and each input keeps its order. TILE = BLOCK_THREADS *
 * ITEMS_PER_THREAD; indices into the inputs are 64-bit, those within a tile 32-bit.
 */
#pragma once

#include <gocccl/config.cuh>

namespace gocccl {
namespace detail {

/// How many of the first diag outputs of the stable merge of a[0:na] and
/// b[0:nb] come from a.
template <typename LessOp, typename AIt, typename BIt>
GOCCCL_DEVICE long long merge_path(AIt a, long long na, BIt b, long long nb, long long diag, const LessOp& less)
{
  long long lo = diag > nb ? diag - nb : 0;
  long long hi = diag < na ? diag : na;
  while (lo < hi)
  {
    const long long mid = lo + (hi - lo) / 2;
    if (!static_cast<bool>(less(b[diag - 1 - mid], a[mid])))
    {
      lo = mid + 1; // a[mid] precedes b[diag - 1 - mid]: take it
    }
    else
    {
      hi = mid;
    }
  }
  return lo;
}

/// merge_path within one tile in shared memory, in 32-bit arithmetic.
template <typename LessOp, typename T>
GOCCCL_DEVICE int merge_path_in_tile(const T* a, int na, const T* b, int nb, int diag, const LessOp& less)
{
  int lo = diag > nb ? diag - nb : 0;
  int hi = diag < na ? diag : na;
  while (lo < hi)
  {
    const int mid = (lo + hi) >> 1;
    if (!static_cast<bool>(less(b[diag - 1 - mid], a[mid])))
    {
      lo = mid + 1;
    }
    else
    {
      hi = mid;
    }
  }
  return lo;
}

} // namespace detail

/**
 * \brief Writes the merge-path split of every tile boundary t in [0, tiles]
 * to d_splits[t]. Launch at least tiles + 1 threads in all.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename LessOp, typename AIt, typename BIt>
__device__ void merge_partition(AIt d_a, long long n_a, BIt d_b, long long n_b, int64_t* d_splits, long long tiles)
{
  constexpr long long TILE = static_cast<long long>(BLOCK_THREADS) * ITEMS_PER_THREAD;
  const long long t = blockIdx.x * static_cast<long long>(BLOCK_THREADS) + threadIdx.x;
  if (t > tiles)
  {
    return;
  }
  const long long total = n_a + n_b;
  const long long diag = t * TILE < total ? t * TILE : total;
  LessOp less;
  d_splits[t] = detail::merge_path(d_a, n_a, d_b, n_b, diag, less);
}

namespace detail {

/// Merges one tile of TILE outputs (FULL) or fewer: merge_tiles' body.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, bool FULL, typename T, typename LessOp, typename AIt, typename BIt>
GOCCCL_DEVICE void merge_tile(AIt a, int na, BIt b, int count, T* out, T* keys)
{
  LessOp less;
  const int tid = threadIdx.x;
  const int nb  = count - na;

  // Striped loads, all in flight, then the shared-memory stores: keys[0:na]
  // is a's part of the tile, keys[na:count] b's. Indices within the tile
  // are 32-bit from the tile's own starts (a and b), as AgentMerge's.
  T staged[ITEMS_PER_THREAD];
#pragma unroll
  for (int k = 0; k < ITEMS_PER_THREAD; ++k)
  {
    const int i = tid + k * BLOCK_THREADS;
    if (FULL || i < count)
    {
      staged[k] = i < na ? a[i] : b[i - na];
    }
  }
#pragma unroll
  for (int k = 0; k < ITEMS_PER_THREAD; ++k)
  {
    const int i = tid + k * BLOCK_THREADS;
    if (FULL || i < count)
    {
      keys[i] = staged[k];
    }
  }
  __syncthreads();

  // This thread's outputs start at diag; ai and bi index keys (bi from na).
  // keys has a slot past the tile: reading the next key of a spent input
  // needs no clamp (it is never compared).
  const int diag = tid * ITEMS_PER_THREAD < count ? tid * ITEMS_PER_THREAD : count;
  int ai         = merge_path_in_tile(keys, na, keys + na, nb, diag, less);
  int bi         = na + (diag - ai);
  T ka           = keys[ai];
  T kb           = keys[bi];
  T merged[ITEMS_PER_THREAD];
#pragma unroll
  for (int k = 0; k < ITEMS_PER_THREAD; ++k)
  {
    // Ties take a first; past count both inputs are spent and merged[k]
    // is never stored.
    const bool take_b = bi < count && (ai >= na || static_cast<bool>(less(kb, ka)));
    merged[k]         = take_b ? kb : ka;
    if (take_b)
    {
      kb = keys[++bi];
    }
    else
    {
      ka = keys[++ai];
    }
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < ITEMS_PER_THREAD; ++k)
  {
    if (FULL || diag + k < count)
    {
      keys[diag + k] = merged[k];
    }
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < ITEMS_PER_THREAD; ++k)
  {
    const int i = tid + k * BLOCK_THREADS;
    if (FULL || i < count)
    {
      out[i] = keys[i];
    }
  }
}

} // namespace detail

/**
 * \brief Merges output tile blockIdx.x of d_a[0:n_a] and d_b[0:n_b] into
 * d_out, using the splits of merge_partition. Launch gridDim.x = tiles =
 * ceil((n_a + n_b) / TILE) blocks of BLOCK_THREADS.
 *
 * As cub's AgentMerge: each thread issues all of its striped loads of the
 * tile's inputs before any shared-memory store, a full tile runs without
 * bounds checks, indices within the tile are 32-bit, and the serial merge
 * keeps the current key of each input in registers, reading one key from
 * shared memory per output (bench/cub/tune/merge_tune.cu timed it at 0.75
 * times the two-reads form's time at 2^28 on the H200). less is called
 * only on two real keys.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename LessOp, typename AIt, typename BIt, typename SplitIt>
__device__ void merge_tiles(AIt d_a, long long n_a, BIt d_b, long long n_b, T* d_out, SplitIt d_splits)
{
  static_assert(BLOCK_THREADS > 0 && BLOCK_THREADS % 32 == 0 && BLOCK_THREADS <= 1024,
                "gocccl::merge: BLOCK_THREADS must be a multiple of 32 in [32, 1024]");
  static_assert(std::is_trivially_copyable<T>::value, "gocccl::merge: T must be trivially copyable");
  constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
  __shared__ alignas(T) unsigned char raw[(TILE + 1) * sizeof(T)];
  T* keys = reinterpret_cast<T*>(raw);

  const long long tile  = blockIdx.x;
  const long long total = n_a + n_b;
  const long long diag0 = tile * TILE;
  const long long diag1 = diag0 + TILE < total ? diag0 + TILE : total;
  // A grid of one tile takes all of both inputs: the host launches no
  // partition for it, and d_splits may be null.
  const long long a0 = gridDim.x == 1 ? 0 : d_splits[tile];
  const long long a1 = gridDim.x == 1 ? n_a : d_splits[tile + 1];
  const int na       = static_cast<int>(a1 - a0);
  const int count    = static_cast<int>(diag1 - diag0); // >= 1: every launched tile has an output
  if (count == TILE)
  {
    detail::merge_tile<BLOCK_THREADS, ITEMS_PER_THREAD, true, T, LessOp>(d_a + a0, na, d_b + (diag0 - a0), count,
                                                                          d_out + diag0, keys);
  }
  else
  {
    detail::merge_tile<BLOCK_THREADS, ITEMS_PER_THREAD, false, T, LessOp>(d_a + a0, na, d_b + (diag0 - a0), count,
                                                                           d_out + diag0, keys);
  }
}

} // namespace gocccl
