/*
 * gocccl/transform_reduce.cuh: a device-wide reduction of op(xf(x)) over the
 * items x of the input, with the transform xf applied as items are loaded (no
 * intermediate buffer); the kernel side of runtime.TransformReduce. It also
 * provides the block-level tile engine that segmented_reduce.cuh uses with an
 * identity transform.
 *
 *   pass 1  <sym>_partial  grid G, 1 <= G <= ceil(n / TILE):
 *           transform_reduce_partial  block b folds xf over tiles b, b+G, ...
 *                                     of d_in and writes d_partials[b] (a T)
 *   pass 2  <sym>_final    grid 1:
 *           transform_reduce_final    reduces the G partials (no transform)
 *                                     and writes d_out[0] = op(init, total)
 *   alone   <sym>_single   grid 1, for n <= TILE:
 *           transform_reduce_single   d_out[0] = op(init, fold xf over d_in),
 *                                     or init when n == 0
 *
 * The structure is reduce.cuh's (strip-mined tiles, 16-byte chunk loads of
 * full tiles when d_in is a pointer aligned to the chunk, clamped loads of the
 * one partial tile, no identity value: each thread's accumulator starts from
 * its first transformed item, BlockReduce over the threads that hold one).
 * Inputs are deduced iterator types: a `const In*` takes the vectorized path,
 * anything else with `it[i]` is read one item at a time. Float operators with
 * twins (gpu_nan.cuh) fold a block's tiles with the twins first and again
 * with the operators only when the block's fold is a NaN.
 *
 * Requirements: In and T trivially copyable; TransformOp default-constructible
 * with `T operator()(In) const`; ReductionOp default-constructible with
 * `T operator()(T, T) const`, associative and commutative. Launch with
 * blockDim.x == BLOCK_THREADS. Sizes and indices are 64-bit.
 */
#pragma once

#include <gocccl/config.cuh>
#include <gocccl/gpu_nan.cuh>
#include <gocccl/reduce.cuh>

#include <cub/block/block_reduce.cuh>

#include <type_traits>

namespace gocccl {
namespace detail {

/// The transform of a plain reduction.
struct IdentityOp
{
  template <typename T>
  __device__ __forceinline__ T operator()(const T& x) const
  {
    return x;
  }
};

/// Reads item i of an input: through the read-only path for a pointer,
/// it[i] for any other iterator.
template <typename InputIt>
GOCCCL_DEVICE auto read_item(InputIt it, long long i)
{
  if constexpr (std::is_pointer<InputIt>::value)
  {
    return load_item<true>(it + i);
  }
  else
  {
    return it[i];
  }
}

/// One thread block's share of a transform-reduction: folds xf over the tiles
/// first_tile, first_tile + tile_stride, ... of d_in[0:n].
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename In, typename T, typename TransformOp, typename ReductionOp>
struct BlockTransformReduceTiles
{
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr int VEC = vector_items(int(sizeof(In)), ITEMS_PER_THREAD);
  static constexpr bool CAN_VECTORIZE = VEC > 1 || (VEC == 1 && alignof(In) < sizeof(In));
  static constexpr int CHUNK_BYTES = VEC * int(sizeof(In));

  using BlockReduceT = cub::BlockReduce<T, BLOCK_THREADS, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
  using TempStorage = typename BlockReduceT::TempStorage;

  static_assert(BLOCK_THREADS > 0 && BLOCK_THREADS % 32 == 0 && BLOCK_THREADS <= 1024,
                "gocccl::transform_reduce: BLOCK_THREADS must be a multiple of 32 in [32, 1024]");
  static_assert(ITEMS_PER_THREAD > 0, "gocccl::transform_reduce: ITEMS_PER_THREAD must be positive");
  static_assert(std::is_trivially_copyable<In>::value && std::is_trivially_copyable<T>::value,
                "gocccl::transform_reduce: item types must be trivially copyable");

  /// Loads a full tile (all loads issued before any is used).
  template <bool VECTORIZED, typename InputIt>
  static GOCCCL_DEVICE void load_full_tile(InputIt tile, In (&items)[ITEMS_PER_THREAD])
  {
    if constexpr (VECTORIZED)
    {
      const In* p = tile + threadIdx.x * VEC;
#pragma unroll
      for (int j = 0; j < ITEMS_PER_THREAD / VEC; ++j)
      {
        load_chunk<true, VEC>(p + j * BLOCK_THREADS * VEC, items + j * VEC);
      }
    }
    else
    {
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        items[i] = read_item(tile, static_cast<long long>(i * BLOCK_THREADS + threadIdx.x));
      }
    }
  }

  template <bool FIRST, bool VECTORIZED, typename InputIt>
  static GOCCCL_DEVICE void consume_full_tile(InputIt tile, T& acc)
  {
    TransformOp xf;
    ReductionOp op;
    In items[ITEMS_PER_THREAD];
    load_full_tile<VECTORIZED>(tile, items);
    if constexpr (FIRST)
    {
      acc = xf(items[0]);
    }
    else
    {
      acc = op(acc, xf(items[0]));
    }
#pragma unroll
    for (int i = 1; i < ITEMS_PER_THREAD; ++i)
    {
      acc = op(acc, xf(items[i]));
    }
  }

  /// Folds the valid_items (< TILE_ITEMS) items of a partial tile; loads are
  /// clamped to the last valid item and never leave the tile.
  template <bool FIRST, typename InputIt>
  static GOCCCL_DEVICE void consume_partial_tile(InputIt tile, int valid_items, T& acc)
  {
    TransformOp xf;
    ReductionOp op;
    const int tid = threadIdx.x;
    const int last = valid_items - 1;
    In items[ITEMS_PER_THREAD];
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int idx = i * BLOCK_THREADS + tid;
      items[i] = read_item(tile, static_cast<long long>(idx < last ? idx : last));
    }
    const int valid = valid_items - tid;
    if (valid > 0)
    {
      if constexpr (FIRST)
      {
        acc = xf(items[0]);
      }
      else
      {
        acc = op(acc, xf(items[0]));
      }
    }
#pragma unroll
    for (int i = 1; i < ITEMS_PER_THREAD; ++i)
    {
      if (i * BLOCK_THREADS < valid)
      {
        acc = op(acc, xf(items[i]));
      }
    }
  }

  /// Returns the fold of this block's tiles in thread 0. Precondition:
  /// first_tile < ceil(n / TILE_ITEMS).
  template <bool VECTORIZED, typename InputIt>
  static GOCCCL_DEVICE T consume_tiles(TempStorage& temp, InputIt d_in, long long n, long long first_tile,
                                       long long tile_stride)
  {
    const long long num_full_tiles = n / TILE_ITEMS;
    const int tail_items = static_cast<int>(n - num_full_tiles * TILE_ITEMS);
    T acc;
    int valid_threads = BLOCK_THREADS;
    long long tile = first_tile;
    if (tile < num_full_tiles)
    {
      consume_full_tile<true, VECTORIZED>(d_in + tile * TILE_ITEMS, acc);
      for (tile += tile_stride; tile < num_full_tiles; tile += tile_stride)
      {
        consume_full_tile<false, VECTORIZED>(d_in + tile * TILE_ITEMS, acc);
      }
      if (tile == num_full_tiles && tail_items > 0)
      {
        consume_partial_tile<false>(d_in + tile * TILE_ITEMS, tail_items, acc);
      }
    }
    else
    {
      consume_partial_tile<true>(d_in + tile * TILE_ITEMS, tail_items, acc);
      valid_threads = tail_items < BLOCK_THREADS ? tail_items : BLOCK_THREADS;
    }
    return BlockReduceT(temp).Reduce(acc, ReductionOp(), valid_threads);
  }

  /// TWIN: the tiles are folded first with the twins of the operators
  /// with the GPU's NaNs (gpu_nan.cuh), by FirstTiles.
  static constexpr bool TWIN = GpuNan<TransformOp, T>::value || GpuNan<ReductionOp, T>::value;
  using FirstTiles =
    BlockTransformReduceTiles<BLOCK_THREADS, ITEMS_PER_THREAD, In, T, typename GpuNan<TransformOp, T>::type,
                              typename GpuNan<ReductionOp, T>::type>;

  /// Returns the fold of this block's tiles in thread 0, the operators'
  /// bit for bit: with TWIN, the twins' fold when it is a number, else the
  /// fold again with the operators themselves (the block reads its tiles a
  /// second time). Precondition: first_tile < ceil(n / TILE_ITEMS).
  template <typename InputIt>
  static GOCCCL_DEVICE T consume(TempStorage& temp, InputIt d_in, long long n, long long first_tile,
                                 long long tile_stride)
  {
    if constexpr (TWIN)
    {
      const T first = FirstTiles::consume_once(temp, d_in, n, first_tile, tile_stride);
      if (!__syncthreads_or(threadIdx.x == 0 && is_nan(first))) // also the barrier before temp is reused
      {
        return first;
      }
    }
    return consume_once(temp, d_in, n, first_tile, tile_stride);
  }

  /// Dispatches on the block-uniform alignment of d_in (pointers only).
  template <typename InputIt>
  static GOCCCL_DEVICE T consume_once(TempStorage& temp, InputIt d_in, long long n, long long first_tile,
                                      long long tile_stride)
  {
    if constexpr (CAN_VECTORIZE && std::is_pointer<InputIt>::value)
    {
      if (is_aligned(d_in, CHUNK_BYTES))
      {
        return consume_tiles<true>(temp, d_in, n, first_tile, tile_stride);
      }
    }
    return consume_tiles<false>(temp, d_in, n, first_tile, tile_stride);
  }
};

} // namespace detail

/**
 * \brief A device-wide transform-reduction in one launch: block b folds xf
 * over its share of the tiles of d_in[0:n] (tiles b, b + G, ...), and the
 * last block to finish reduces the G partials in d_scratch (no transform) and
 * writes d_out[0] = op(init, total), as reduce_single_pass does.
 *
 * \param d_scratch  ReduceScratch<T>: a 32-bit counter that is 0 when the
 *                   kernel starts and again when it ends, then gridDim.x
 *                   partials from byte PARTIALS_OFFSET on.
 *
 * Launch: n >= 1, 1 <= gridDim.x <= ceil(n / TILE); one wave of resident
 * blocks or fewer (the last block reduces the partials alone).
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename In, typename T, typename TransformOp, typename ReductionOp,
          typename InputIt>
__device__ void transform_reduce_single_pass(InputIt d_in, long long n, T* d_out, T init, void* d_scratch)
{
  using Tiles = detail::BlockTransformReduceTiles<BLOCK_THREADS, ITEMS_PER_THREAD, In, T, TransformOp, ReductionOp>;
  __shared__ typename Tiles::TempStorage temp;
  const T aggregate = Tiles::consume(temp, d_in, n, blockIdx.x, static_cast<long long>(gridDim.x));
  detail::finish_single_pass<BLOCK_THREADS, T, ReductionOp>(temp, aggregate, d_out, init, d_scratch);
}

/**
 * \brief The whole transform-reduction in one block (meant for n <= TILE):
 * d_out[0] = op(init, fold of xf over d_in[0:n]), or init when n == 0.
 * gridDim.x == 1.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename In, typename T, typename TransformOp, typename ReductionOp,
          typename InputIt>
__device__ void transform_reduce_single(InputIt d_in, long long n, T* d_out, T init)
{
  using Tiles = detail::BlockTransformReduceTiles<BLOCK_THREADS, ITEMS_PER_THREAD, In, T, TransformOp, ReductionOp>;
  __shared__ typename Tiles::TempStorage temp;
  if (n <= 0)
  {
    if (threadIdx.x == 0)
    {
      d_out[0] = init;
    }
    return;
  }
  const T aggregate = Tiles::consume(temp, d_in, n, 0, 1);
  if (threadIdx.x == 0)
  {
    d_out[0] = ReductionOp()(init, aggregate);
  }
}

/**
 * \brief runtime.GPUToGPU's transform-reduction: reduce.cuh's fixed tree
 * (reduce_deterministic) with xf applied to each item as it is read.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename In, typename T, typename TransformOp, typename ReductionOp,
          typename InputIt>
__device__ void transform_reduce_deterministic(InputIt d_in, long long n, T* d_out, T init, void* d_scratch)
{
  detail::reduce_deterministic<BLOCK_THREADS, T, TransformOp, ReductionOp>(d_in, n, d_out, init, d_scratch);
}

} // namespace gocccl
