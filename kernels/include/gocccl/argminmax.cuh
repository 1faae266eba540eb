/*
 * gocccl/argminmax.cuh: the extremum of a sequence by a user's strict weak
 * order `less` and its index (the kernel side of runtime.ArgMin, ArgMax,
 * SegmentedArgMin and SegmentedArgMax; cub::DeviceReduce::ArgMin/ArgMax and
 * cub::DeviceSegmentedReduce::ArgMin/ArgMax).
 *
 * Every value travels as an ArgPair {index, value}; index -1 marks "no item
 * yet". Two pairs combine (ArgOp) by the order first and by the lower index
 * among equivalent values, so the combination is associative and commutative
 * whenever less is a strict weak order, and the result is the one a
 * sequential scan would keep: the first minimum (ArgMin) or the first maximum
 * (ArgMax, the first item no other item is greater than).
 *
 *   <sym>_sweep   argmin_single_pass / argmax_single_pass  grid G,
 *                 1 <= G <= max(1, ceil(n / TILE)): block b folds tiles b,
 *                 b + G, ... thread by thread (striped, so each thread sees
 *                 its items in increasing index order and keeps the first of
 *                 equal ones), reduces the block's pairs with BlockReduce,
 *                 and the last block to finish (reduce.cuh's "last block
 *                 finishes") reduces the G partials and writes d_value[0]
 *                 and d_index[0]. With n == 0 it writes T() and -1.
 *   <sym>_warp    segmented_*_warp   a warp per segment
 *   <sym>_block   segmented_*_block  a block per segment
 *                 d_value[s], d_index[s]: the extremum of segment s and its
 *                 index relative to the segment's (clamped) begin; an empty
 *                 segment gives T() and -1. Offsets are trusted and clamped
 *                 to [0, n) as in segmented_reduce.cuh.
 *
 * Scratch of the single pass: ReduceScratch<ArgPair<T>> (reduce.cuh): a
 * 32-bit counter (zero at launch and again at the end), then G pairs.
 *
 * Requirements: T trivially copyable, default constructible; Less
 * default-constructible with `bool operator()(T, T) const`. Launch with
 * blockDim.x == BLOCK_THREADS.
 */
#pragma once

#include <gocccl/config.cuh>
#include <gocccl/reduce.cuh>
#include <gocccl/segmented_reduce.cuh>
#include <gocccl/transform_reduce.cuh>

#include <cub/block/block_reduce.cuh>
#include <cub/warp/warp_reduce.cuh>

namespace gocccl {

/// An item and its index; index < 0: none.
template <typename T>
struct ArgPair
{
  long long index;
  T value;
};

namespace detail {

/// Combines ArgPairs: MAX picks the greater by Less, else the lesser; among
/// equivalent values the lower index; a pair with index < 0 is no item.
template <typename T, typename Less, bool MAX>
struct ArgOp
{
  /// Whether b's value comes strictly before a's in the wanted order.
  static GOCCCL_DEVICE bool better(const T& b, const T& a)
  {
    Less less;
    if constexpr (MAX)
    {
      return less(a, b);
    }
    else
    {
      return less(b, a);
    }
  }

  GOCCCL_DEVICE ArgPair<T> operator()(const ArgPair<T>& a, const ArgPair<T>& b) const
  {
    if (a.index < 0)
    {
      return b;
    }
    if (b.index < 0)
    {
      return a;
    }
    if (better(b.value, a.value))
    {
      return b;
    }
    if (better(a.value, b.value))
    {
      return a;
    }
    return b.index < a.index ? b : a;
  }
};

/// Folds item v at index i, later than every index in acc, into acc.
template <typename T, typename Less, bool MAX>
GOCCCL_DEVICE void arg_fold(ArgPair<T>& acc, const T& v, long long i)
{
  if (acc.index < 0 || ArgOp<T, Less, MAX>::better(v, acc.value))
  {
    acc.index = i;
    acc.value = v;
  }
}

/// Folds the tiles first_tile, first_tile + stride, ... of d_in[0:n] into
/// this thread's pair (striped: item j of a tile goes to thread j %
/// BLOCK_THREADS), indices offset by base.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Less, bool MAX, typename InputIt>
GOCCCL_DEVICE ArgPair<T> arg_fold_tiles(InputIt d_in, long long n, long long first_tile, long long stride)
{
  constexpr long long TILE = static_cast<long long>(BLOCK_THREADS) * ITEMS_PER_THREAD;
  const int tid = threadIdx.x;
  ArgPair<T> acc;
  acc.index = -1;
  for (long long tile = first_tile; tile * TILE < n; tile += stride)
  {
    const long long base = tile * TILE;
    if (base + TILE <= n)
    {
      T items[ITEMS_PER_THREAD];
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        items[i] = read_item(d_in, base + i * BLOCK_THREADS + tid);
      }
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        arg_fold<T, Less, MAX>(acc, items[i], base + i * BLOCK_THREADS + tid);
      }
    }
    else
    {
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        const long long idx = base + i * BLOCK_THREADS + tid;
        if (idx < n)
        {
          arg_fold<T, Less, MAX>(acc, read_item(d_in, idx), idx);
        }
      }
    }
  }
  return acc;
}

/// The single pass of ArgMin (MAX false) and ArgMax (MAX true).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Less, bool MAX, typename InputIt>
GOCCCL_DEVICE void arg_single_pass(InputIt d_in, long long n, T* d_value, int64_t* d_index, void* d_scratch)
{
  using Pair = ArgPair<T>;
  using Op = ArgOp<T, Less, MAX>;
  using BlockReduceT = cub::BlockReduce<Pair, BLOCK_THREADS, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
  using Scratch = ReduceScratch<Pair>;
  __shared__ typename BlockReduceT::TempStorage temp;
  __shared__ bool last;

  const Pair mine = arg_fold_tiles<BLOCK_THREADS, ITEMS_PER_THREAD, T, Less, MAX>(
    d_in, n, blockIdx.x, static_cast<long long>(gridDim.x));
  const Pair aggregate = BlockReduceT(temp).Reduce(mine, Op());
  if (gridDim.x == 1)
  {
    if (threadIdx.x == 0)
    {
      d_value[0] = aggregate.index < 0 ? T() : aggregate.value;
      d_index[0] = static_cast<int64_t>(aggregate.index);
    }
    return;
  }
  Pair* partials = Scratch::partials(d_scratch);
  if (threadIdx.x == 0)
  {
    partials[blockIdx.x] = aggregate;
    __threadfence();
    const unsigned int done = atomicAdd(Scratch::counter(d_scratch), 1u);
    last = done == gridDim.x - 1;
  }
  __syncthreads();
  if (!last)
  {
    return;
  }
  __threadfence();
  Pair acc;
  acc.index = -1;
  for (int i = threadIdx.x; i < static_cast<int>(gridDim.x); i += BLOCK_THREADS)
  {
    acc = Op()(acc, load_coherent(partials + i));
  }
  __syncthreads(); // temp is reused
  const Pair total = BlockReduceT(temp).Reduce(acc, Op());
  if (threadIdx.x == 0)
  {
    d_value[0] = total.index < 0 ? T() : total.value;
    d_index[0] = static_cast<int64_t>(total.index);
    *Scratch::counter(d_scratch) = 0u;
  }
}

/// Segmented, a warp per segment (MAX as for arg_single_pass).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Less, bool MAX, typename InputIt,
          typename BeginIt, typename EndIt>
GOCCCL_DEVICE void segmented_arg_warp(InputIt d_in, long long n, BeginIt d_begin, EndIt d_end,
                                      long long num_segments, T* d_value, int64_t* d_index)
{
  static_assert(BLOCK_THREADS % 32 == 0, "gocccl::segmented_arg: BLOCK_THREADS must be a multiple of 32");
  constexpr int WARPS = BLOCK_THREADS / 32;
  using Pair = ArgPair<T>;
  using WarpReduceT = cub::WarpReduce<Pair>;
  __shared__ typename WarpReduceT::TempStorage temp[WARPS];

  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const long long stride = static_cast<long long>(gridDim.x) * WARPS;
  for (long long s = static_cast<long long>(blockIdx.x) * WARPS + warp; s < num_segments; s += stride)
  {
    const Segment seg = segment_bounds(d_begin, d_end, s, n);
    Pair acc;
    acc.index = -1;
    long long i = lane;
    constexpr int STEP = 32 * ITEMS_PER_THREAD;
    for (; (i - lane) + STEP <= seg.len; i += STEP) // warp-uniform
    {
      T items[ITEMS_PER_THREAD];
#pragma unroll
      for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      {
        items[j] = read_item(d_in, seg.begin + i + j * 32);
      }
#pragma unroll
      for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      {
        arg_fold<T, Less, MAX>(acc, items[j], i + j * 32);
      }
    }
    for (; i < seg.len; i += 32)
    {
      arg_fold<T, Less, MAX>(acc, read_item(d_in, seg.begin + i), i);
    }
    const Pair total = WarpReduceT(temp[warp]).Reduce(acc, ArgOp<T, Less, MAX>());
    if (lane == 0)
    {
      d_value[s] = total.index < 0 ? T() : total.value;
      d_index[s] = static_cast<int64_t>(total.index);
    }
    __syncwarp();
  }
}

/// Segmented, a block per segment, for long segments.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Less, bool MAX, typename InputIt,
          typename BeginIt, typename EndIt>
GOCCCL_DEVICE void segmented_arg_block(InputIt d_in, long long n, BeginIt d_begin, EndIt d_end,
                                       long long num_segments, T* d_value, int64_t* d_index)
{
  using Pair = ArgPair<T>;
  using BlockReduceT = cub::BlockReduce<Pair, BLOCK_THREADS, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
  __shared__ typename BlockReduceT::TempStorage temp;

  for (long long s = blockIdx.x; s < num_segments; s += gridDim.x)
  {
    const Segment seg = segment_bounds(d_begin, d_end, s, n);
    const Pair mine = arg_fold_tiles<BLOCK_THREADS, ITEMS_PER_THREAD, T, Less, MAX>(d_in + seg.begin, seg.len, 0, 1);
    const Pair total = BlockReduceT(temp).Reduce(mine, ArgOp<T, Less, MAX>());
    if (threadIdx.x == 0)
    {
      d_value[s] = total.index < 0 ? T() : total.value;
      d_index[s] = static_cast<int64_t>(total.index);
    }
    __syncthreads(); // temp is reused by the next segment
  }
}

} // namespace detail

/**
 * \brief d_value[0], d_index[0] = the first least item of d_in[0:n] by Less
 * and its index; T() and -1 when n == 0.
 *
 * \param d_scratch  ReduceScratch<ArgPair<T>>, its counter zero at launch
 *                   (unused when gridDim.x == 1)
 *
 * Launch: 1 <= gridDim.x <= max(1, ceil(n / TILE)).
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Less, typename InputIt>
__device__ void argmin_single_pass(InputIt d_in, long long n, T* d_value, int64_t* d_index, void* d_scratch)
{
  detail::arg_single_pass<BLOCK_THREADS, ITEMS_PER_THREAD, T, Less, false>(d_in, n, d_value, d_index, d_scratch);
}

/// \brief As argmin_single_pass, the first greatest item by Less.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Less, typename InputIt>
__device__ void argmax_single_pass(InputIt d_in, long long n, T* d_value, int64_t* d_index, void* d_scratch)
{
  detail::arg_single_pass<BLOCK_THREADS, ITEMS_PER_THREAD, T, Less, true>(d_in, n, d_value, d_index, d_scratch);
}

/// \brief Segmented ArgMin, a warp per segment: d_value[s], d_index[s] for
/// s < num_segments (index relative to the segment's begin; T() and -1 for
/// an empty segment). Launch: any gridDim.x >= 1.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Less, typename InputIt, typename BeginIt,
          typename EndIt>
__device__ void segmented_argmin_warp(InputIt d_in, long long n, BeginIt d_begin, EndIt d_end,
                                      long long num_segments, T* d_value, int64_t* d_index)
{
  detail::segmented_arg_warp<BLOCK_THREADS, ITEMS_PER_THREAD, T, Less, false>(
    d_in, n, d_begin, d_end, num_segments, d_value, d_index);
}

/// \brief Segmented ArgMin, a block per segment (as segmented_argmin_warp).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Less, typename InputIt, typename BeginIt,
          typename EndIt>
__device__ void segmented_argmin_block(InputIt d_in, long long n, BeginIt d_begin, EndIt d_end,
                                       long long num_segments, T* d_value, int64_t* d_index)
{
  detail::segmented_arg_block<BLOCK_THREADS, ITEMS_PER_THREAD, T, Less, false>(
    d_in, n, d_begin, d_end, num_segments, d_value, d_index);
}

/// \brief Segmented ArgMax, a warp per segment.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Less, typename InputIt, typename BeginIt,
          typename EndIt>
__device__ void segmented_argmax_warp(InputIt d_in, long long n, BeginIt d_begin, EndIt d_end,
                                      long long num_segments, T* d_value, int64_t* d_index)
{
  detail::segmented_arg_warp<BLOCK_THREADS, ITEMS_PER_THREAD, T, Less, true>(
    d_in, n, d_begin, d_end, num_segments, d_value, d_index);
}

/// \brief Segmented ArgMax, a block per segment.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Less, typename InputIt, typename BeginIt,
          typename EndIt>
__device__ void segmented_argmax_block(InputIt d_in, long long n, BeginIt d_begin, EndIt d_end,
                                       long long num_segments, T* d_value, int64_t* d_index)
{
  detail::segmented_arg_block<BLOCK_THREADS, ITEMS_PER_THREAD, T, Less, true>(
    d_in, n, d_begin, d_end, num_segments, d_value, d_index);
}

} // namespace gocccl
