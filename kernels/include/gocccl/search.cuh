/*
 * gocccl/search.cuh: vectorized binary search (the kernel side of
 * runtime.LowerBound and runtime.UpperBound; cub::DeviceFind::LowerBound /
 * UpperBound in CCCL 3, cuda.compute's lower_bound / upper_bound).
 *
 *   <sym>  grid G: thread t of the grid takes search values t, t + G *
 *          BLOCK_THREADS, ... (grid-stride, 64-bit indices) and writes the
 *          index of each into d_out.
 *
 * lower_bound: the first i in [0, n_data] with !less(d_data[i], v);
 * upper_bound: the first i in [0, n_data] with less(v, d_data[i]).
 * d_data must be sorted by less (partitioned with respect to v suffices).
 * Neighbouring threads search neighbouring values, so when the values are
 * themselves sorted their probes coincide and hit the same cache lines.
 *
 *   <sym>_sorted  grid = ceil((n_data + n_values) / TILE): the values sorted
 *          too (cub::DeviceFind::LowerBound/UpperBound over sorted values of
 *          CCCL 3.5). A search of sorted values is a stable merge of the
 *          two sequences: lower_bound(v) is the number of data items that
 *          the merge puts before v when values go first at ties (data x
 *          precedes v iff less(x, v)), upper_bound(v) the number when data
 *          goes first (x precedes v iff !less(v, x)). Block t takes merge
 *          path tile t as merge.cuh's tiles do (warps 0 and 1 search its two
 *          splits in global memory), loads both parts into shared memory,
 *          each thread walks ITEMS_PER_THREAD steps of the merge from its
 *          own diagonal and records, for each value it passes, the data
 *          index there; the tile's results leave coalesced. Every item is
 *          read once: O(n_data + n_values) instead of n_values binary
 *          searches. Types too large for the tile's shared memory run the
 *          binary search instead (same results).
 */
#pragma once

#include <gocccl/config.cuh>
#include <gocccl/merge.cuh>

namespace gocccl {
namespace detail {

/// The first i in [0, n) where pred(d_data[i]) holds, for a predicate
/// that is false then true along d_data.
template <typename DataIt, typename Pred>
GOCCCL_DEVICE long long partition_point(DataIt d_data, long long n, Pred pred)
{
  long long lo = 0, len = n;
  while (len > 0)
  {
    const long long half = len / 2;
    if (pred(d_data[lo + half]))
    {
      len = half;
    }
    else
    {
      lo += half + 1;
      len -= half + 1;
    }
  }
  return lo;
}

template <int BLOCK_THREADS, typename LessOp, bool UPPER, typename DataIt, typename ValueIt>
GOCCCL_DEVICE void search(DataIt d_data, long long n_data, ValueIt d_values, long long n_values, int64_t* d_out)
{
  static_assert(BLOCK_THREADS > 0 && BLOCK_THREADS % 32 == 0 && BLOCK_THREADS <= 1024,
                "gocccl::search: BLOCK_THREADS must be a multiple of 32 in [32, 1024]");
  LessOp less;
  const long long stride = static_cast<long long>(gridDim.x) * BLOCK_THREADS;
  for (long long i = blockIdx.x * static_cast<long long>(BLOCK_THREADS) + threadIdx.x; i < n_values; i += stride)
  {
    const auto v = d_values[i];
    long long r;
    if constexpr (UPPER)
    {
      r = partition_point(d_data, n_data, [&](const decltype(v)& x) { return static_cast<bool>(less(v, x)); });
    }
    else
    {
      r = partition_point(d_data, n_data, [&](const decltype(v)& x) { return !static_cast<bool>(less(x, v)); });
    }
    d_out[i] = r;
  }
}

} // namespace detail

/**
 * \brief For each d_values[i], i < n_values, writes to d_out[i] the first
 * index j of d_data[0:n_data] with !less(d_data[j], d_values[i]).
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename LessOp, typename DataIt, typename ValueIt>
__device__ void lower_bound(DataIt d_data, long long n_data, ValueIt d_values, long long n_values, int64_t* d_out)
{
  detail::search<BLOCK_THREADS, LessOp, false>(d_data, n_data, d_values, n_values, d_out);
}

/**
 * \brief For each d_values[i], i < n_values, writes to d_out[i] the first
 * index j of d_data[0:n_data] with less(d_values[i], d_data[j]).
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename LessOp, typename DataIt, typename ValueIt>
__device__ void upper_bound(DataIt d_data, long long n_data, ValueIt d_values, long long n_values, int64_t* d_out)
{
  detail::search<BLOCK_THREADS, LessOp, true>(d_data, n_data, d_values, n_values, d_out);
}

namespace detail {

/// Shared memory of a sorted search's tile: TILE + 1 items (merge.cuh's
/// slot past the tile) and TILE results.
template <int TILE, typename T>
struct SortedSearchSmem
{
  static constexpr long long bytes = (TILE + 1) * static_cast<long long>(sizeof(T)) + TILE * 8ll;
};

/// One tile of a sorted search: a[0:na] and b[0:count - na] are its parts
/// of the two inputs, a0 and b0 their first global indices. The values are
/// a (VALUES_IN_A: a lower bound) or b (an upper bound); each value's result
/// is the global index of the data item the merge reaches with it.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, bool FULL, bool VALUES_IN_A, typename T, typename LessOp,
          typename AIt, typename BIt>
GOCCCL_DEVICE void sorted_search_tile(
  AIt a, int na, BIt b, int count, long long a0, long long b0, int64_t* d_out, T* keys, long long* res)
{
  LessOp less;
  const int tid = threadIdx.x;
  const int nb  = count - na;
  T staged[ITEMS_PER_THREAD];
#pragma unroll
  for (int k = 0; k < ITEMS_PER_THREAD; ++k)
  {
    const int i = tid + k * BLOCK_THREADS;
    if (FULL || i < count)
    {
      staged[k] = i < na ? static_cast<T>(a[i]) : static_cast<T>(b[i - na]);
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

  // As merge_tile's walk: ties take a; keys' slot past the tile is read,
  // never compared, when an input is spent.
  const int diag = tid * ITEMS_PER_THREAD < count ? tid * ITEMS_PER_THREAD : count;
  int ai         = merge_path_in_tile(keys, na, keys + na, nb, diag, less);
  int bi         = na + (diag - ai);
  T ka           = keys[ai];
  T kb           = keys[bi];
#pragma unroll
  for (int k = 0; k < ITEMS_PER_THREAD; ++k)
  {
    if (FULL || diag + k < count)
    {
      const bool take_b = bi < count && (ai >= na || static_cast<bool>(less(kb, ka)));
      if (take_b)
      {
        if (!VALUES_IN_A)
        {
          res[bi - na] = a0 + ai;
        }
        kb = keys[++bi];
      }
      else
      {
        if (VALUES_IN_A)
        {
          res[ai] = b0 + (bi - na);
        }
        ka = keys[++ai];
      }
    }
  }
  __syncthreads();
  const int nv          = VALUES_IN_A ? na : nb;
  int64_t* out          = d_out + (VALUES_IN_A ? a0 : b0);
  for (int i = tid; i < nv; i += BLOCK_THREADS)
  {
    out[i] = res[i];
  }
}

/// A search of sorted values over merge path tiles: a is the side that
/// goes first at ties (the values of a lower bound, the data of an upper
/// bound).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename LessOp, bool VALUES_IN_A, typename AIt,
          typename BIt>
GOCCCL_DEVICE void sorted_search(AIt d_a, long long n_a, BIt d_b, long long n_b, int64_t* d_out)
{
  static_assert(BLOCK_THREADS > 0 && BLOCK_THREADS % 32 == 0 && BLOCK_THREADS <= 1024,
                "gocccl::search: BLOCK_THREADS must be a multiple of 32 in [32, 1024]");
  constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
  if constexpr (SortedSearchSmem<TILE, T>::bytes > 48 * 1024)
  {
    // Too large a tile for static shared memory: the binary search of every
    // value, over the grid of tiles the host launched.
    if constexpr (VALUES_IN_A)
    {
      search<BLOCK_THREADS, LessOp, false>(d_b, n_b, d_a, n_a, d_out);
    }
    else
    {
      search<BLOCK_THREADS, LessOp, true>(d_a, n_a, d_b, n_b, d_out);
    }
  }
  else
  {
    __shared__ alignas(T) unsigned char raw[(TILE + 1) * sizeof(T)];
    __shared__ long long res[TILE];
    __shared__ long long searched[2];
    T* keys = reinterpret_cast<T*>(raw);

    const long long total = n_a + n_b;
    const long long diag0 = static_cast<long long>(blockIdx.x) * TILE;
    if (diag0 >= total)
    {
      return;
    }
    const long long diag1 = diag0 + TILE < total ? diag0 + TILE : total;
    long long a0 = 0;
    long long a1 = n_a;
    if (gridDim.x > 1)
    {
      LessOp less;
      block_search_pair<BLOCK_THREADS>(
        searched, [&](int i) { return warp_merge_path(d_a, n_a, d_b, n_b, i == 0 ? diag0 : diag1, less); }, a0, a1);
    }
    const int na    = static_cast<int>(a1 - a0);
    const int count = static_cast<int>(diag1 - diag0);
    const long long b0 = diag0 - a0;
    if (count == TILE)
    {
      sorted_search_tile<BLOCK_THREADS, ITEMS_PER_THREAD, true, VALUES_IN_A, T, LessOp>(
        d_a + a0, na, d_b + b0, count, a0, b0, d_out, keys, res);
    }
    else
    {
      sorted_search_tile<BLOCK_THREADS, ITEMS_PER_THREAD, false, VALUES_IN_A, T, LessOp>(
        d_a + a0, na, d_b + b0, count, a0, b0, d_out, keys, res);
    }
  }
}

} // namespace detail

/**
 * \brief lower_bound of sorted d_values[0:n_values]: the same results, by a
 * merge of the two sorted sequences. Launch ceil((n_data + n_values) /
 * TILE) blocks.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename LessOp, typename DataIt, typename ValueIt>
__device__ void lower_bound_sorted(DataIt d_data, long long n_data, ValueIt d_values, long long n_values, int64_t* d_out)
{
  detail::sorted_search<BLOCK_THREADS, ITEMS_PER_THREAD, T, LessOp, true>(d_values, n_values, d_data, n_data, d_out);
}

/**
 * \brief upper_bound of sorted d_values[0:n_values], by a merge as
 * lower_bound_sorted.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename LessOp, typename DataIt, typename ValueIt>
__device__ void upper_bound_sorted(DataIt d_data, long long n_data, ValueIt d_values, long long n_values, int64_t* d_out)
{
  detail::sorted_search<BLOCK_THREADS, ITEMS_PER_THREAD, T, LessOp, false>(d_data, n_data, d_values, n_values, d_out);
}

} // namespace gocccl
