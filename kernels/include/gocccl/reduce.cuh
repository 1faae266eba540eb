/*
 * gocccl/reduce.cuh: device-wide reduction from CUB's BlockReduce (the kernel
 * side of runtime.Reduce; see docs/ARCHITECTURE.md). The runtime launches one
 * kernel either way: reduce_final on one block when n fits one tile, else
 * reduce_single_pass, in which every block reduces its share as pass 1 below
 * does and the last block to finish does pass 2 over the partials it finds in
 * the stream's scratch ("last block finishes"; see reduce_single_pass). The
 * two-launch form below is kept for the C++ benchmarks and tests.
 *
 *   pass 1  <sym>_partial  grid G, 1 <= G <= ceil(n / TILE):
 *           reduce_partial  block b reduces tiles b, b+G, b+2G, ... of d_in
 *                           ("strip-mined" even share: every block gets
 *                           floor(num_tiles / G) tiles, the first
 *                           num_tiles % G blocks one more) and writes
 *                           d_partials[b].
 *   pass 2  <sym>_final     grid 1:
 *           reduce_final    reduces d_in[0:n] (the G partials, or the whole
 *                           input when n <= TILE) and writes
 *                           d_out[0] = op(init, total), or init when n == 0.
 *
 * TILE = BLOCK_THREADS * ITEMS_PER_THREAD. Host dispatch (Go runtime): when
 * n <= TILE launch only _final over d_in; otherwise launch _partial with
 * G = min(num_tiles, SMs * blocks_per_SM * k) and then _final over the G
 * partials (k is a small oversubscription factor; CUB uses 5).
 *
 * How a block reads: full tiles are read with one 16-byte (or narrower)
 * read-only access per chunk of consecutive items when the item size is 1, 2,
 * 4, 8 or 16 bytes and d_in is aligned to the chunk (checked once per block;
 * otherwise one item per access, still coalesced: item i of a tile goes to
 * thread i % BLOCK_THREADS). All loads of a tile are issued before any of them
 * is used. Only the last tile of the input can be partial; its load indices
 * are clamped to the last item, so no element outside d_in[0:n] is ever read
 * (clamped duplicates are loaded but not combined). There is no identity
 * value: each thread's accumulator starts from its first item, and a block
 * whose only tile is partial hands BlockReduce just the threads that hold an
 * item.
 *
 * Result order: operands are combined in an unspecified order (thread-serial
 * over its items, then a tree), as in cub::DeviceReduce, so the operator must
 * be associative and commutative; floating-point sums are correct up to
 * rounding and may differ from a serial sum and between policies/grids (but
 * are deterministic for a fixed policy, grid and n).
 *
 * ---------------------------------------------------------------------------
 * Recommended policy (sm_75, sm_80, sm_86, sm_89, sm_90; one table for all):
 * CUB's sm_60+ reduce tuning (256 threads, 16 items nominal for 4-byte items,
 * scaled by item size as cub::MemBoundScaling does), which keeps about 64 bytes
 * per thread in flight per tile. The item size is sizeof(T).
 *
 *   sizeof(T)  BLOCK_THREADS  ITEMS_PER_THREAD         TILE   full-tile loads/thread
 *   1          256            32                       8192   2 x 16 B
 *   2          256            32                       8192   4 x 16 B
 *   4          256            16                       4096   4 x 16 B
 *   8          256             8                       2048   4 x 16 B
 *   16         256             4                       1024   4 x 16 B
 *   other S    256            clamp(64 / S, 1, 32)            IPT x S B, per item
 *                             (12 B: 5, 24 B: 2, 32 B: 2, >= 33 B: 1)
 *
 * Entry points should carry __launch_bounds__(BLOCK_THREADS). With it, nvcc
 * 11.8 keeps the _partial kernels of these policies at <= 32 registers on
 * sm_80 / sm_90 (8 blocks of 256 per SM, full occupancy) without spills; on
 * sm_75 / sm_86 / sm_89 (1024 / 1536 threads per SM) ptxas uses up to 64 /
 * 40 registers, still full occupancy. A heavy user operator can need more:
 * the host must take the occupancy of the loaded cubin
 * (cuOccupancyMaxActiveBlocksPerMultiprocessor) when it sizes G.
 * ---------------------------------------------------------------------------
 *
 * Requirements on T: trivially copyable and default constructible.
 * Requirements on ReductionOp: default constructible functor with
 * `T operator()(const T&, const T&) const`, associative and commutative. A
 * float ReductionOp with a twin (gpu_nan.cuh) reduces a block's tiles with
 * the twin first and again with ReductionOp only when the result is a NaN.
 * Kernels must be launched with blockDim = (BLOCK_THREADS, 1, 1).
 */
#pragma once

#include <gocccl/config.cuh>
#include <gocccl/gpu_nan.cuh>

#include <cub/block/block_reduce.cuh>

namespace gocccl {
namespace detail {

/// Loads an item written by another block of the same launch, bypassing the
/// incoherent L1 (ld.global.cg), one word at a time when T is not a word.
template <typename T>
GOCCCL_DEVICE T load_coherent(const T* p)
{
  if constexpr (sizeof(T) == 4 && alignof(T) >= 4)
  {
    unsigned int w = __ldcg(reinterpret_cast<const unsigned int*>(p));
    T v;
    memcpy(&v, &w, sizeof(T));
    return v;
  }
  else if constexpr (sizeof(T) == 8 && alignof(T) >= 8)
  {
    unsigned long long w = __ldcg(reinterpret_cast<const unsigned long long*>(p));
    T v;
    memcpy(&v, &w, sizeof(T));
    return v;
  }
  else
  {
    // Volatile byte copy: never cached in L1.
    T v;
    const volatile unsigned char* src = reinterpret_cast<const volatile unsigned char*>(p);
    unsigned char* dst = reinterpret_cast<unsigned char*>(&v);
#pragma unroll
    for (int i = 0; i < int(sizeof(T)); ++i)
    {
      dst[i] = src[i];
    }
    return v;
  }
}

/// One thread block's share of a reduction: folds the tiles first_tile,
/// first_tile + tile_stride, ... of d_in[0:n] into one value per thread.
/// Used by both passes (partial: first_tile = blockIdx.x, tile_stride =
/// gridDim.x; final: 0 and 1).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ReductionOp>
struct BlockReduceTiles
{
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;

  /// Items per chunk access on full tiles (0 or 1: no chunking).
  static constexpr int VEC = vector_items(int(sizeof(T)), ITEMS_PER_THREAD);
  static constexpr bool CAN_VECTORIZE = VEC > 1 || (VEC == 1 && alignof(T) < sizeof(T));
  static constexpr int CHUNK_BYTES = VEC * int(sizeof(T));

  using BlockReduceT = cub::BlockReduce<T, BLOCK_THREADS, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
  using TempStorage = typename BlockReduceT::TempStorage;

  static_assert(BLOCK_THREADS > 0 && BLOCK_THREADS % 32 == 0 && BLOCK_THREADS <= 1024,
                "gocccl::reduce: BLOCK_THREADS must be a multiple of 32 in [32, 1024]");
  static_assert(ITEMS_PER_THREAD > 0, "gocccl::reduce: ITEMS_PER_THREAD must be positive");
  static_assert(std::is_trivially_copyable<T>::value, "gocccl::reduce: T must be trivially copyable");

  /// Loads a full tile into items[]: chunked (VECTORIZED) or one item per
  /// access. Addresses are this thread's base plus compile-time offsets.
  template <bool VECTORIZED, typename InputIt>
  static GOCCCL_DEVICE void load_full_tile(InputIt tile, T (&items)[ITEMS_PER_THREAD])
  {
    if constexpr (!std::is_pointer<InputIt>::value)
    {
      // An iterator (iterator.cuh): one item per access, striped.
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        items[i] = tile[static_cast<long long>(threadIdx.x) + i * BLOCK_THREADS];
      }
    }
    else if constexpr (VECTORIZED)
    {
      // Chunk c = j * BLOCK_THREADS + tid holds items [c * VEC, c * VEC + VEC).
      const T* p = tile + threadIdx.x * VEC;
#pragma unroll
      for (int j = 0; j < ITEMS_PER_THREAD / VEC; ++j)
      {
        load_chunk<true, VEC>(p + j * BLOCK_THREADS * VEC, items + j * VEC);
      }
    }
    else
    {
      const T* p = tile + threadIdx.x;
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        items[i] = load_item<true>(p + i * BLOCK_THREADS);
      }
    }
  }

  /// Folds a full tile into acc; when FIRST, acc is seeded from the tile.
  template <bool FIRST, bool VECTORIZED, typename InputIt>
  static GOCCCL_DEVICE void consume_full_tile(InputIt tile, T& acc, ReductionOp op)
  {
    T items[ITEMS_PER_THREAD];
    load_full_tile<VECTORIZED>(tile, items);
    if constexpr (FIRST)
    {
      acc = items[0];
    }
    else
    {
      acc = op(acc, items[0]);
    }
#pragma unroll
    for (int i = 1; i < ITEMS_PER_THREAD; ++i)
    {
      acc = op(acc, items[i]);
    }
  }

  /// Folds the valid_items (< TILE_ITEMS) items of a partial tile into acc,
  /// striped over the block. When FIRST, threads with tid < valid_items seed
  /// acc from their first item and the others leave it unset.
  ///
  /// Every thread issues all ITEMS_PER_THREAD loads up front (latency matters:
  /// this is the whole input of a single-tile reduction), but the index is
  /// clamped to the last valid item, so loads need no predicate and never
  /// leave the tile; items past the end are loaded (duplicates of the last
  /// item) but not combined. This keeps the tail at the register cost of a
  /// full tile.
  template <bool FIRST, typename InputIt>
  static GOCCCL_DEVICE void consume_partial_tile(InputIt tile, int valid_items, T& acc, ReductionOp op)
  {
    const int tid = threadIdx.x;
    const int last = valid_items - 1;
    T items[ITEMS_PER_THREAD];
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int idx = i * BLOCK_THREADS + tid;
      if constexpr (std::is_pointer<InputIt>::value)
      {
        items[i] = load_item<true>(tile + (idx < last ? idx : last));
      }
      else
      {
        items[i] = tile[static_cast<long long>(idx < last ? idx : last)];
      }
    }
    const int valid = valid_items - tid; // this thread's item i is valid iff i * BLOCK_THREADS < valid
    if constexpr (FIRST)
    {
      if (valid > 0)
      {
        acc = items[0];
      }
    }
    else
    {
      if (valid > 0)
      {
        acc = op(acc, items[0]);
      }
    }
#pragma unroll
    for (int i = 1; i < ITEMS_PER_THREAD; ++i)
    {
      if (i * BLOCK_THREADS < valid)
      {
        acc = op(acc, items[i]);
      }
    }
  }

  /// Returns the reduction of this block's tiles in thread 0 (other threads:
  /// unspecified). Precondition: the block owns at least one tile, i.e.
  /// first_tile < ceil(n / TILE_ITEMS).
  template <bool VECTORIZED, typename InputIt>
  static GOCCCL_DEVICE T consume_tiles(TempStorage& temp, InputIt d_in, long long n,
                                       long long first_tile, long long tile_stride)
  {
    ReductionOp op;
    const long long num_full_tiles = n / TILE_ITEMS;
    const int tail_items = static_cast<int>(n - num_full_tiles * TILE_ITEMS);

    T acc;
    int valid_threads = BLOCK_THREADS;
    long long tile = first_tile;
    if (tile < num_full_tiles)
    {
      consume_full_tile<true, VECTORIZED>(d_in + tile * TILE_ITEMS, acc, op);
      for (tile += tile_stride; tile < num_full_tiles; tile += tile_stride)
      {
        consume_full_tile<false, VECTORIZED>(d_in + tile * TILE_ITEMS, acc, op);
      }
      // The block's next tile is the partial last tile of the input?
      if (tile == num_full_tiles && tail_items > 0)
      {
        consume_partial_tile<false>(d_in + tile * TILE_ITEMS, tail_items, acc, op);
      }
    }
    else
    {
      // The block's only tile is the partial last tile.
      consume_partial_tile<true>(d_in + tile * TILE_ITEMS, tail_items, acc, op);
      valid_threads = tail_items < BLOCK_THREADS ? tail_items : BLOCK_THREADS;
    }
    return BlockReduceT(temp).Reduce(acc, op, valid_threads);
  }

  /// TWIN: the tiles are folded first with ReductionOp's twin with the
  /// GPU's NaNs (gpu_nan.cuh), by FirstTiles.
  static constexpr bool TWIN = GpuNan<ReductionOp, T>::value;
  using FirstTiles = BlockReduceTiles<BLOCK_THREADS, ITEMS_PER_THREAD, T, typename GpuNan<ReductionOp, T>::type>;

  /// Returns the reduction of this block's tiles in thread 0, ReductionOp's
  /// bit for bit: with TWIN, the twin's when it is a number, else the tiles
  /// reduced again with ReductionOp (read a second time). Precondition as
  /// for consume_tiles.
  template <typename InputIt>
  static GOCCCL_DEVICE T consume(TempStorage& temp, InputIt d_in, long long n,
                                 long long first_tile, long long tile_stride)
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

  /// Dispatches on the block-uniform alignment of d_in.
  template <typename InputIt>
  static GOCCCL_DEVICE T consume_once(TempStorage& temp, InputIt d_in, long long n,
                                      long long first_tile, long long tile_stride)
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
 * \brief Pass 1 of a device-wide reduction: block b reduces its share of the
 * tiles of d_in[0:n] and writes the result to d_partials[b].
 *
 * \tparam BLOCK_THREADS     threads per block (multiple of 32, <= 1024); launch with blockDim.x == BLOCK_THREADS
 * \tparam ITEMS_PER_THREAD  items each thread reads per tile
 * \tparam T                 item type (trivially copyable)
 * \tparam ReductionOp       default-constructible `T operator()(const T&, const T&) const`, associative and commutative
 *
 * \param d_in        input, n items
 * \param n           item count, n >= 1
 * \param d_partials  output, gridDim.x items
 *
 * Launch: gridDim.x = G with 1 <= G <= ceil(n / (BLOCK_THREADS * ITEMS_PER_THREAD)).
 * Block b reduces tiles b, b + G, b + 2G, ... (floor(num_tiles / G) tiles, one
 * more for the first num_tiles % G blocks). A block beyond the last tile
 * (G too large) writes nothing.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ReductionOp, typename InputIt>
__device__ void reduce_partial(InputIt d_in, long long n, T* d_partials)
{
  using Tiles = detail::BlockReduceTiles<BLOCK_THREADS, ITEMS_PER_THREAD, T, ReductionOp>;
  __shared__ typename Tiles::TempStorage temp;

  const long long num_tiles = (n + Tiles::TILE_ITEMS - 1) / Tiles::TILE_ITEMS;
  const long long block = blockIdx.x;
  if (block >= num_tiles)
  {
    return; // precondition violated; block-uniform, nothing to reduce
  }
  const T aggregate = Tiles::consume(temp, d_in, n, block, static_cast<long long>(gridDim.x));
  if (threadIdx.x == 0)
  {
    d_partials[blockIdx.x] = aggregate;
  }
}

/**
 * \brief Pass 2 of a device-wide reduction (or the whole reduction when n is
 * at most one tile): one block reduces d_in[0:n] and writes
 * d_out[0] = op(init, total); with n == 0 it writes d_out[0] = init.
 *
 * \tparam BLOCK_THREADS, ITEMS_PER_THREAD, T, ReductionOp  as for reduce_partial
 *
 * \param d_in   input (the partials of pass 1, or the original input), n items
 * \param n      item count, n >= 0; any size works (the block loops over tiles),
 *               but it is meant for n <= a few tiles
 * \param d_out  output, one item
 * \param init   initial value, combined as op(init, total)
 *
 * Launch: gridDim.x == 1.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ReductionOp, typename InputIt, typename OutputIt>
__device__ void reduce_final(InputIt d_in, long long n, OutputIt d_out, T init)
{
  using Tiles = detail::BlockReduceTiles<BLOCK_THREADS, ITEMS_PER_THREAD, T, ReductionOp>;
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
    ReductionOp op;
    d_out[0] = op(init, aggregate);
  }
}

/// Layout of the scratch memory of reduce_single_pass: a counter of finished
/// blocks, then one partial per block, aligned for T.
template <typename T>
struct ReduceScratch
{
  static constexpr long long PARTIALS_OFFSET = alignof(T) > 16 ? alignof(T) : 16;

  static GOCCCL_DEVICE unsigned int* counter(void* scratch) { return static_cast<unsigned int*>(scratch); }
  static GOCCCL_DEVICE T* partials(void* scratch)
  {
    return reinterpret_cast<T*>(static_cast<char*>(scratch) + PARTIALS_OFFSET);
  }
};

namespace detail {

/// The end of a single-pass reduction, once every thread of the block has
/// reached it with the block's aggregate in thread 0: the block writes its
/// partial to the scratch and counts itself finished (after a memory
/// fence); the last block to finish reduces the gridDim.x partials, writes
/// d_out[0] = op(init, total) and resets the counter to 0. temp is the
/// block's BlockReduce storage, free to reuse.
template <int BLOCK_THREADS, typename T, typename ReductionOp, typename OutputIt>
GOCCCL_DEVICE void finish_single_pass(
  typename cub::BlockReduce<T, BLOCK_THREADS, cub::BLOCK_REDUCE_WARP_REDUCTIONS>::TempStorage& temp,
  const T& aggregate,
  OutputIt d_out,
  T init,
  void* d_scratch)
{
  using Scratch = ReduceScratch<T>;
  __shared__ bool last;

  T* partials = Scratch::partials(d_scratch);
  if (threadIdx.x == 0)
  {
    partials[blockIdx.x] = aggregate;
    __threadfence(); // the partial is visible device-wide before the count
    const unsigned int done = atomicAdd(Scratch::counter(d_scratch), 1u);
    last = done == gridDim.x - 1;
  }
  __syncthreads();
  if (!last)
  {
    return;
  }
  // Every other block's partial is visible: read them past the L1.
  __threadfence();
  ReductionOp op;
  const int blocks = static_cast<int>(gridDim.x);
  T acc;
  int valid = 0;
  for (int i = threadIdx.x; i < blocks; i += BLOCK_THREADS)
  {
    const T v = load_coherent(partials + i);
    acc = valid ? op(acc, v) : v;
    valid = 1;
  }
  const int valid_threads = blocks < BLOCK_THREADS ? blocks : BLOCK_THREADS;
  __syncthreads(); // temp is reused
  const T total = cub::BlockReduce<T, BLOCK_THREADS, cub::BLOCK_REDUCE_WARP_REDUCTIONS>(temp).Reduce(
    acc, op, valid_threads);
  if (threadIdx.x == 0)
  {
    d_out[0] = op(init, total);
    *Scratch::counter(d_scratch) = 0u;
  }
}

} // namespace detail

/**
 * \brief A device-wide reduction in one launch: every block reduces its share
 * of the tiles of d_in[0:n] as reduce_partial does and writes its partial to
 * scratch; the last block to finish ("last block finishes", counted with an
 * atomic after a memory fence) reduces the gridDim.x partials and writes
 * d_out[0] = op(init, total), then resets the counter to 0.
 *
 * \tparam BLOCK_THREADS, ITEMS_PER_THREAD, T, ReductionOp  as for reduce_partial
 *
 * \param d_in       input, n items, n >= 1
 * \param n          item count
 * \param d_out      output, one item
 * \param init       initial value, combined as op(init, total)
 * \param d_scratch  ReduceScratch<T>: a 32-bit counter that is 0 when the
 *                   kernel starts (and is 0 again when it ends), then
 *                   gridDim.x partials from byte PARTIALS_OFFSET on. The
 *                   counter's reset makes the scratch reusable by the next
 *                   reduction in stream order without a memset.
 *
 * Launch: 1 <= gridDim.x <= ceil(n / TILE); the partials are reduced by one
 * block, so gridDim.x should stay a few waves of resident blocks.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ReductionOp, typename InputIt, typename OutputIt>
__device__ void reduce_single_pass(InputIt d_in, long long n, OutputIt d_out, T init, void* d_scratch)
{
  using Tiles = detail::BlockReduceTiles<BLOCK_THREADS, ITEMS_PER_THREAD, T, ReductionOp>;
  __shared__ typename Tiles::TempStorage temp;

  const T aggregate = Tiles::consume(temp, d_in, n, blockIdx.x, static_cast<long long>(gridDim.x));
  detail::finish_single_pass<BLOCK_THREADS, T, ReductionOp>(temp, aggregate, d_out, init, d_scratch);
}

/*
 * ---------------------------------------------------------------------------
 * The GPU-to-GPU deterministic reduction (runtime.GPUToGPU): one fixed
 * reduction tree for a given n, whatever the GPU, its SM count, the grid,
 * the policy or the CUB version; runtime/reduce_det.go computes the same
 * tree on the CPU backend, operand for operand.
 *
 *   tile      DET_TILE = 4096 consecutive items (the last one may be short),
 *             for every item type.
 *   in a tile of m items: lane l of DET_LANES = 256 folds items l, l + 256,
 *             l + 512, ... < m in that order, acc = op(acc, item), starting
 *             from item l (lanes l >= m hold nothing); then, with
 *             present = min(m, 256), for s = 128, 64, ..., 1:
 *             lane[l] = op(lane[l], lane[l + s]) for every l < s with
 *             l + s < present, and present = min(present, s). lane[0] is
 *             the tile's value.
 *   levels    the ceil(n / 4096) tile values are an input of the same
 *             shape: its tiles of 4096 values are reduced as above, and so
 *             on until one value is left, the total.
 *   result    op(init, total), or init when n == 0.
 *
 * reduce_deterministic runs it in one launch: blocks take tiles
 * blockIdx.x, blockIdx.x + gridDim.x, ... and write each tile's value to
 * partials[tile] in the scratch (ReduceScratch); the last block to finish
 * reduces the levels in place and resets the counter. With one tile it
 * writes the result directly and touches no scratch (d_scratch may be
 * null). BLOCK_THREADS is any multiple of 32 up to 1024: a thread serves
 * lanes tid, tid + BLOCK_THREADS, ... . A float operator with a NaN twin
 * (gpu_nan.cuh) computes a tile with the twin and again with itself when
 * the tile's value is a NaN, so the values are the operator's bit for bit.
 * ---------------------------------------------------------------------------
 */
namespace detail {

constexpr int DET_LANES = 256;
constexpr int DET_ITEMS = 16;
constexpr int DET_TILE  = DET_LANES * DET_ITEMS;

/// The identity transform of a plain reduction's deterministic tree.
struct DetIdentity
{
  template <typename T>
  __device__ __forceinline__ T operator()(const T& x) const
  {
    return x;
  }
};

/// Reads item i of a deterministic tree's input: LEVEL inputs (partials
/// written by other blocks) past the L1, pointers through the read-only
/// path, other iterators as it[i].
template <bool LEVEL, typename InputIt>
GOCCCL_DEVICE auto det_read(InputIt it, long long i)
{
  if constexpr (LEVEL)
  {
    return load_coherent(it + i);
  }
  else if constexpr (std::is_pointer<InputIt>::value)
  {
    return load_item<true>(it + i);
  }
  else
  {
    return it[i];
  }
}

/// The value of one tile of m items (1 <= m <= DET_TILE) in the fixed tree,
/// returned to every thread of the block. lanes is shared storage for
/// DET_LANES values of T. xf is applied to each item as it is read.
template <int BLOCK_THREADS, bool LEVEL, typename T, typename TransformOp, typename ReductionOp, typename InputIt>
GOCCCL_DEVICE T det_tile_once(T* lanes, InputIt tile, int m)
{
  TransformOp xf;
  ReductionOp op;
  for (int lane = threadIdx.x; lane < DET_LANES; lane += BLOCK_THREADS)
  {
    if (m == DET_TILE)
    {
      T items[DET_ITEMS];
#pragma unroll
      for (int i = 0; i < DET_ITEMS; ++i)
      {
        items[i] = xf(det_read<LEVEL>(tile, lane + i * DET_LANES));
      }
      T acc = items[0];
#pragma unroll
      for (int i = 1; i < DET_ITEMS; ++i)
      {
        acc = op(acc, items[i]);
      }
      lanes[lane] = acc;
    }
    else if (lane < m)
    {
      T acc = xf(det_read<LEVEL>(tile, lane));
      for (int i = lane + DET_LANES; i < m; i += DET_LANES)
      {
        acc = op(acc, xf(det_read<LEVEL>(tile, i)));
      }
      lanes[lane] = acc;
    }
  }
  __syncthreads();
  int present = m < DET_LANES ? m : DET_LANES;
#pragma unroll
  for (int s = DET_LANES / 2; s > 0; s >>= 1)
  {
    for (int lane = threadIdx.x; lane < s; lane += BLOCK_THREADS)
    {
      if (lane + s < present)
      {
        lanes[lane] = op(lanes[lane], lanes[lane + s]);
      }
    }
    present = present < s ? present : s;
    __syncthreads();
  }
  const T v = lanes[0];
  __syncthreads(); // lanes is reused
  return v;
}

/// det_tile_once with the operators' NaN twins first when they have them.
template <int BLOCK_THREADS, bool LEVEL, typename T, typename TransformOp, typename ReductionOp, typename InputIt>
GOCCCL_DEVICE T det_tile(T* lanes, InputIt tile, int m)
{
  constexpr bool TWIN = GpuNan<TransformOp, T>::value || GpuNan<ReductionOp, T>::value;
  if constexpr (TWIN)
  {
    const T v = det_tile_once<BLOCK_THREADS, LEVEL, T, typename GpuNan<TransformOp, T>::type,
                              typename GpuNan<ReductionOp, T>::type>(lanes, tile, m);
    if (!is_nan(v)) // block-uniform: every thread has v
    {
      return v;
    }
  }
  return det_tile_once<BLOCK_THREADS, LEVEL, T, TransformOp, ReductionOp>(lanes, tile, m);
}

/// The whole deterministic reduction (see above) of xf over d_in[0:n].
template <int BLOCK_THREADS, typename T, typename TransformOp, typename ReductionOp, typename InputIt,
          typename OutputIt>
GOCCCL_DEVICE void reduce_deterministic(InputIt d_in, long long n, OutputIt d_out, T init, void* d_scratch)
{
  static_assert(BLOCK_THREADS > 0 && BLOCK_THREADS % 32 == 0 && BLOCK_THREADS <= 1024,
                "gocccl::reduce_deterministic: BLOCK_THREADS must be a multiple of 32 in [32, 1024]");
  __shared__ alignas(T) unsigned char lanes_raw[DET_LANES * sizeof(T)];
  __shared__ bool last;
  T* lanes = reinterpret_cast<T*>(lanes_raw);
  ReductionOp op;

  if (n <= 0)
  {
    if (threadIdx.x == 0 && blockIdx.x == 0)
    {
      d_out[0] = init;
    }
    return;
  }
  const long long num_tiles = (n + DET_TILE - 1) / DET_TILE;
  if (num_tiles == 1)
  {
    if (blockIdx.x == 0)
    {
      const T v = det_tile<BLOCK_THREADS, false, T, TransformOp, ReductionOp>(lanes, d_in, static_cast<int>(n));
      if (threadIdx.x == 0)
      {
        d_out[0] = op(init, v);
      }
    }
    return;
  }
  using Scratch = ReduceScratch<T>;
  T* partials   = Scratch::partials(d_scratch);
  for (long long t = blockIdx.x; t < num_tiles; t += gridDim.x)
  {
    const long long rest = n - t * DET_TILE;
    const int m          = rest < DET_TILE ? static_cast<int>(rest) : DET_TILE;
    const T v = det_tile<BLOCK_THREADS, false, T, TransformOp, ReductionOp>(lanes, d_in + t * DET_TILE, m);
    if (threadIdx.x == 0)
    {
      partials[t] = v;
    }
  }
  if (threadIdx.x == 0)
  {
    __threadfence(); // the partials are visible device-wide before the count
    const unsigned int done = atomicAdd(Scratch::counter(d_scratch), 1u);
    last                    = done == gridDim.x - 1;
  }
  __syncthreads();
  if (!last)
  {
    return;
  }
  __threadfence();
  // The levels, in place: tile t of a level reads values [t * DET_TILE, ...)
  // and writes value t, which no later tile of the level reads.
  long long count = num_tiles;
  while (count > 1)
  {
    const long long next = (count + DET_TILE - 1) / DET_TILE;
    for (long long t = 0; t < next; ++t)
    {
      const long long rest = count - t * DET_TILE;
      const int m          = rest < DET_TILE ? static_cast<int>(rest) : DET_TILE;
      const T v = det_tile<BLOCK_THREADS, true, T, DetIdentity, ReductionOp>(lanes, partials + t * DET_TILE, m);
      if (threadIdx.x == 0)
      {
        partials[t] = v;
      }
      __threadfence_block();
      __syncthreads();
    }
    count = next;
  }
  if (threadIdx.x == 0)
  {
    d_out[0]                   = op(init, load_coherent(partials));
    *Scratch::counter(d_scratch) = 0u;
  }
}

} // namespace detail

/**
 * \brief runtime.GPUToGPU's reduction: d_out[0] = op(init, the fixed tree
 * over d_in[0:n]) described above, the same bits on any GPU and grid.
 *
 * \param d_scratch  ReduceScratch<T> with room for ceil(n / DET_TILE)
 *                   partials and a counter that is 0 (and is 0 again when
 *                   the kernel ends); unused (may be null) when n <= DET_TILE.
 *
 * Launch: any gridDim.x >= 1 (1 when n <= DET_TILE), blockDim.x == BLOCK_THREADS.
 * ITEMS_PER_THREAD is the policy's and does not shape the tree.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ReductionOp, typename InputIt, typename OutputIt>
__device__ void reduce_deterministic(InputIt d_in, long long n, OutputIt d_out, T init, void* d_scratch)
{
  detail::reduce_deterministic<BLOCK_THREADS, T, detail::DetIdentity, ReductionOp>(d_in, n, d_out, init, d_scratch);
}

} // namespace gocccl
