/*
 * gocccl/merge.cuh: stable device-wide merge of two sorted sequences by
 * merge-path partitioning (the kernel side of runtime.Merge; cub::DeviceMerge
 * in CCCL 3, agent_merge.cuh).
 *
 *   <sym>_partition  one thread per tile boundary t in [0, tiles]: the
 *                    merge path of diagonal min(t * TILE, n_a + n_b), i.e.
 *                    how many of the first outputs come from d_a, into
 *                    d_splits[t].
 *   <sym>_tiles      grid = tiles: block t finds its two splits, loads its
 *                    TILE inputs (the d_a and d_b ranges between them) into
 *                    shared memory, each thread finds its own diagonal there
 *                    and merges ITEMS_PER_THREAD outputs serially, and the
 *                    block writes the tile back coalesced through shared
 *                    memory. The splits come from one of three places:
 *                      - a grid of one tile takes all of both inputs (no
 *                        search, no splits read);
 *                      - d_splits, written by <sym>_partition beforehand;
 *                      - d_splits == nullptr: the block searches them itself
 *                        in global memory, warp 0 its first diagonal and
 *                        warp 1 its last (detail::warp_merge_path: 32 probes
 *                        a round, about six rounds of dependent loads over
 *                        2^28 keys), so no partition launch is needed. The
 *                        host takes this path while the grid is one wave of
 *                        resident blocks (runtime/merge.go).
 *                    All three give the same split of every diagonal, so the
 *                    output is the same bit for bit.
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

/// merge_path by the 32 lanes of the calling warp together, for a search in
/// global memory where every step is a dependent load. Each round the lanes
/// probe up to 32 points of the current range [lo, hi) at once (all of it
/// while it holds at most 32, else 32 points that cut it into 33 nearly equal
/// parts), each loading a[x] and b[diag - 1 - x] together, and a ballot keeps
/// the part between the last probe that takes a[x] and the first that does
/// not: a range of 2^27 takes 6 rounds instead of 27 steps. For a and b
/// sorted by less the result is merge_path's exactly (the predicate is
/// monotone, so the first probe past the split is unique); for any input it
/// stays in merge_path's range, and less sees only real keys.
///
/// All 32 lanes of the warp must call it, converged, with the same
/// arguments; every lane gets the split.
template <typename LessOp, typename AIt, typename BIt>
GOCCCL_DEVICE long long warp_merge_path(AIt a, long long na, BIt b, long long nb, long long diag, const LessOp& less)
{
  const int lane = static_cast<int>(threadIdx.x) & 31;
  long long lo   = diag > nb ? diag - nb : 0;
  long long hi   = diag < na ? diag : na;
  while (lo < hi)
  {
    // Probe k < probes of this round is at point(k), strictly increasing in
    // [lo, hi).
    const long long len = hi - lo;
    const int probes    = len < 32 ? static_cast<int>(len) : 32;
    const auto point    = [lo, len](int k) { return len <= 32 ? lo + k : lo + len * (k + 1) / 33; };
    bool past           = false; // b's key on the diagonal orders before a's: the split is at or before x
    if (lane < probes)
    {
      const long long x = point(lane);
      past              = static_cast<bool>(less(b[diag - 1 - x], a[x]));
    }
    const unsigned ballot = __ballot_sync(0xffffffffu, past);
    const int first       = ballot ? __ffs(ballot) - 1 : probes; // the first probe past the split
    const long long next_hi = first < probes ? point(first) : hi;
    lo                      = first > 0 ? point(first - 1) + 1 : lo;
    hi                      = next_hi;
  }
  return lo;
}

/// Runs search(0) and search(1), two warp-cooperative searches (each called
/// by all 32 lanes of one warp), on warps 0 and 1 at once (one after the
/// other on a block of one warp), and returns both results to every thread
/// of the block through smem. Every thread of the block must call it; it
/// ends with __syncthreads.
template <int BLOCK_THREADS, typename SearchOp>
GOCCCL_DEVICE void block_search_pair(long long (&smem)[2], const SearchOp& search, long long& first, long long& second)
{
  static_assert(BLOCK_THREADS >= 32 && BLOCK_THREADS % 32 == 0,
                "block_search_pair: whole warps only (each search is a full warp's ballot)");
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const bool lead = (threadIdx.x & 31) == 0;
  if (BLOCK_THREADS >= 64)
  {
    if (warp < 2)
    {
      const long long s = search(warp);
      if (lead)
      {
        smem[warp] = s;
      }
    }
  }
  else
  {
    const long long s0 = search(0);
    const long long s1 = search(1);
    if (lead)
    {
      smem[0] = s0;
      smem[1] = s1;
    }
  }
  __syncthreads();
  first  = smem[0];
  second = smem[1];
}

/// Whether a splits argument is the null pointer: the host passes none.
/// Never true of an iterator.
template <typename It>
GOCCCL_DEVICE bool is_null(const It&)
{
  return false;
}
template <typename T>
GOCCCL_DEVICE bool is_null(T* p)
{
  return p == nullptr;
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
 * d_out. Launch gridDim.x = tiles = ceil((n_a + n_b) / TILE) blocks of
 * BLOCK_THREADS.
 *
 * The tile's splits (how many of its first and of its last output come from
 * d_a) are d_splits[t] and d_splits[t + 1] of merge_partition; with
 * d_splits == nullptr the block finds them itself (warps 0 and 1, one
 * warp_merge_path each, before the tile's loads: no partition launch, and
 * no scratch); a grid of one tile needs none and reads no d_splits.
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
  // The self-searched splits, apart from raw: a thread may store its part of
  // the tile there before a slower one has read them.
  __shared__ long long searched[2];
  T* keys = reinterpret_cast<T*>(raw);

  const long long tile  = blockIdx.x;
  const long long total = n_a + n_b;
  const long long diag0 = tile * TILE;
  const long long diag1 = diag0 + TILE < total ? diag0 + TILE : total;
  long long a0 = 0;
  long long a1 = n_a;
  if (gridDim.x == 1)
  {
    // One tile takes all of both inputs: the host launches no partition
    // for it, and d_splits may be null.
  }
  else if (detail::is_null(d_splits))
  {
    LessOp less;
    detail::block_search_pair<BLOCK_THREADS>(
      searched,
      [&](int i) { return detail::warp_merge_path(d_a, n_a, d_b, n_b, i == 0 ? diag0 : diag1, less); }, a0, a1);
  }
  else
  {
    a0 = d_splits[tile];
    a1 = d_splits[tile + 1];
  }
  const int na    = static_cast<int>(a1 - a0);
  const int count = static_cast<int>(diag1 - diag0); // >= 1: every launched tile has an output
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
