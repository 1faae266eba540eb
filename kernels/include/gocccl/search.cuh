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
 */
#pragma once

#include <gocccl/config.cuh>

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

} // namespace gocccl
