/*
 * gocccl/segmented_reduce.cuh: one reduction per segment (the kernel side of
 * runtime.SegmentedReduce): d_out[s] = op(init, fold of d_in[begin[s]:end[s]]),
 * or init for an empty segment.
 *
 * Four kernels with the same parameters; the host picks one per call from the
 * average segment length n / num_segments and the number of segments, or,
 * given a maximum segment length, from that:
 *
 *   <sym>_warp   segmented_reduce_warp   one warp per segment, BLOCK_THREADS/32
 *                                        segments per block (grid-stride over
 *                                        segment groups). For short and
 *                                        medium segments: CUB's
 *                                        DeviceSegmentedReduce gives every
 *                                        segment a whole block, which leaves
 *                                        most of a 1024-item block idle and
 *                                        pays a block-wide reduction (two
 *                                        barriers) per segment.
 *   <sym>_block  segmented_reduce_block  one block per segment (grid-stride),
 *                                        the tile engine of
 *                                        transform_reduce.cuh: long segments.
 *   <sym>_thread segmented_reduce_thread one thread per segment, BLOCK_THREADS
 *                                        segments per block: tiny segments
 *                                        (runtime's MaxSegmentSize hint, or
 *                                        RunFixed, of at most
 *                                        ITEMS_PER_THREAD items). The block
 *                                        stages the span of its segments in
 *                                        shared memory with coalesced loads
 *                                        when it fits a tile.
 *   <sym>_subwarp segmented_reduce_subwarp  SUBWARP_THREADS (8) lanes per
 *                                        segment: small segments (at most
 *                                        8 * ITEMS_PER_THREAD items).
 *   <sym>_warp_fixed, <sym>_block_fixed, <sym>_thread_fixed,
 *   <sym>_subwarp_fixed                  the same over segments of one
 *                                        size (runtime's RunFixed): offsets
 *                                        computed, not read.
 *
 * The host picks _thread and _subwarp only on a promise of the segments'
 * maximum length (or from RunFixed's size). Neither trusts it: the thread
 * kernel folds a segment of any length (from global memory when the block's
 * span does not fit its tile), and the sub-warp loops over one of any
 * length, so a broken promise costs time, never correctness.
 *
 * How a warp reads its segment [b, e) of length len: lane l seeds its
 * accumulator with item b + l (l < len), so exactly the first min(len, 32)
 * lanes hold a value and cub::WarpReduce's valid_items form applies without
 * an identity. The rest [b + 32, e) is read, when d_in is a pointer and the
 * item a 4/8/16-byte access size at natural alignment, as a head of at most
 * VEC-1 single items up to 16-byte alignment, a body of 16-byte chunks
 * (ITEMS_PER_THREAD / VEC chunks per lane issued before use), and a tail of
 * fewer than VEC items; otherwise one item per lane per step, ITEMS_PER_THREAD
 * loads in flight. Every access is coalesced across the warp.
 *
 * Offsets are trusted as in cub::DeviceSegmentedReduce, but never to the
 * point of reading out of bounds: each segment is clamped to [0, n) and a
 * segment with end < begin is empty (gives init). The host checks the offsets
 * only on the CPU backend (they live in device memory; checking them on the
 * GPU would cost a copy and a synchronisation).
 *
 * Requirements: T trivially copyable; ReductionOp default-constructible,
 * `T operator()(T, T) const`, associative and commutative. Offsets are
 * int64. Launch with blockDim.x == BLOCK_THREADS.
 */
#pragma once

#include <gocccl/config.cuh>
#include <gocccl/transform_reduce.cuh>

#include <cub/warp/warp_reduce.cuh>

#include <type_traits>

namespace gocccl {
namespace detail {

/// A segment clamped to the input: its first item and length (>= 0).
struct Segment
{
  long long begin, len;
};

/// FixedOffsets is the begin (END false) or end (END true) offset of every
/// segment of size items, read like an offsets array: segment_bounds clamps
/// the last one to the input.
template <bool END>
struct FixedOffsets
{
  long long size;
  GOCCCL_DEVICE long long operator[](long long s) const { return (s + (END ? 1 : 0)) * size; }
};

/// Segment s clamped to [0, n).
template <typename BeginIt, typename EndIt>
GOCCCL_DEVICE Segment segment_bounds(BeginIt d_begin, EndIt d_end, long long s, long long n)
{
  long long lo = static_cast<long long>(read_item(d_begin, s));
  long long hi = static_cast<long long>(read_item(d_end, s));
  lo = lo < 0 ? 0 : (lo > n ? n : lo);
  hi = hi > n ? n : hi;
  return Segment{lo, hi > lo ? hi - lo : 0};
}

/// The span [lo, hi) that a block's segments cover (lo > hi when all are
/// empty), from every thread's clamped segment: one barrier.
template <int BLOCK_THREADS>
GOCCCL_DEVICE void block_span(Segment seg, long long (&lo_of)[BLOCK_THREADS / 32], long long (&hi_of)[BLOCK_THREADS / 32],
                              long long& lo, long long& hi)
{
  constexpr int WARPS = BLOCK_THREADS / 32;
  lo = seg.len > 0 ? seg.begin : 0x7fffffffffffffffLL;
  hi = seg.len > 0 ? seg.begin + seg.len : 0;
#pragma unroll
  for (int d = 16; d > 0; d /= 2)
  {
    const long long l = __shfl_xor_sync(0xffffffffu, lo, d);
    const long long h = __shfl_xor_sync(0xffffffffu, hi, d);
    lo = l < lo ? l : lo;
    hi = h > hi ? h : hi;
  }
  if (threadIdx.x % 32 == 0)
  {
    lo_of[threadIdx.x / 32] = lo;
    hi_of[threadIdx.x / 32] = hi;
  }
  __syncthreads();
#pragma unroll
  for (int w = 0; w < WARPS; ++w)
  {
    lo = lo_of[w] < lo ? lo_of[w] : lo;
    hi = hi_of[w] > hi ? hi_of[w] : hi;
  }
}

/// One warp folds items [0, m) of p into acc (every lane holds a value).
template <int ITEMS_PER_THREAD, typename T, typename ReductionOp, typename InputIt>
GOCCCL_DEVICE void warp_fold(InputIt p, long long m, int lane, T& acc)
{
  ReductionOp op;
  constexpr int STEP = 32 * ITEMS_PER_THREAD;
  constexpr int VEC = vector_items(int(sizeof(T)), ITEMS_PER_THREAD);
  if constexpr (std::is_pointer<InputIt>::value && VEC > 1 && alignof(T) >= sizeof(T))
  {
    constexpr int CHUNK = VEC * int(sizeof(T));
    // 16-byte chunks per lane per step: two (32 bytes in flight per lane,
    // 48+ resident warps per SM cover the H200's bandwidth-latency product
    // of ~22 KB per SM); four made nvcc 11.8 spill at 40 registers.
    constexpr int CHUNKS = ITEMS_PER_THREAD / VEC < 2 ? ITEMS_PER_THREAD / VEC : 2;
    const unsigned long long addr = reinterpret_cast<unsigned long long>(p);
    long long head = static_cast<long long>(((CHUNK - addr % CHUNK) % CHUNK) / sizeof(T));
    head = head < m ? head : m;
    if (lane < head)
    {
      acc = op(acc, load_item<true>(p + lane));
    }
    const T* q = p + head;
    const long long rest = m - head;
    const long long chunks = rest / VEC;
    long long c = lane;
    for (; (c - lane) + 32 * CHUNKS <= chunks; c += 32 * CHUNKS) // full steps: warp-uniform
    {
      T items[CHUNKS * VEC];
#pragma unroll
      for (int j = 0; j < CHUNKS; ++j)
      {
        load_chunk<true, VEC>(q + (c + j * 32) * VEC, items + j * VEC);
      }
#pragma unroll
      for (int i = 0; i < CHUNKS * VEC; ++i)
      {
        acc = op(acc, items[i]);
      }
    }
    for (; c < chunks; c += 32)
    {
      T items[VEC];
      load_chunk<true, VEC>(q + c * VEC, items);
#pragma unroll
      for (int i = 0; i < VEC; ++i)
      {
        acc = op(acc, items[i]);
      }
    }
    const long long tail = rest - chunks * VEC;
    if (lane < tail)
    {
      acc = op(acc, load_item<true>(q + chunks * VEC + lane));
    }
  }
  else
  {
    long long i = lane;
    for (; (i - lane) + STEP <= m; i += STEP)
    {
      T items[ITEMS_PER_THREAD];
#pragma unroll
      for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      {
        items[j] = read_item(p, i + j * 32);
      }
#pragma unroll
      for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      {
        acc = op(acc, items[j]);
      }
    }
    for (; i < m; i += 32)
    {
      acc = op(acc, read_item(p, i));
    }
  }
}

} // namespace detail

/**
 * \brief One warp per segment: d_out[s] = op(init, fold of the segment) for
 * s in [0, num_segments).
 *
 * \param d_in          input, n items
 * \param n             item count (segments are clamped to [0, n))
 * \param d_begin       num_segments begin offsets (int64)
 * \param d_end         num_segments end offsets (int64)
 * \param num_segments  segment count
 * \param d_out         output, num_segments items
 * \param init          seed of every segment's reduction
 *
 * Launch: any gridDim.x >= 1 (ceil(num_segments / (BLOCK_THREADS / 32)) for
 * one segment per warp); warps stride over the segments.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ReductionOp, typename InputIt,
          typename BeginIt, typename EndIt>
__device__ void segmented_reduce_warp(InputIt d_in, long long n, BeginIt d_begin, EndIt d_end,
                                      long long num_segments, T* d_out, T init)
{
  static_assert(BLOCK_THREADS % 32 == 0, "gocccl::segmented_reduce: BLOCK_THREADS must be a multiple of 32");
  constexpr int WARPS = BLOCK_THREADS / 32;
  using WarpReduceT = cub::WarpReduce<T>;
  __shared__ typename WarpReduceT::TempStorage temp[WARPS];

  ReductionOp op;
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const long long stride = static_cast<long long>(gridDim.x) * WARPS;
  for (long long s = static_cast<long long>(blockIdx.x) * WARPS + warp; s < num_segments; s += stride)
  {
    const detail::Segment seg = detail::segment_bounds(d_begin, d_end, s, n);
    const long long b = seg.begin, len = seg.len;
    if (len == 0) // warp-uniform
    {
      if (lane == 0)
      {
        d_out[s] = init;
      }
      continue;
    }
    T acc;
    if (lane < len)
    {
      acc = detail::read_item(d_in, b + lane);
    }
    if (len > 32)
    {
      detail::warp_fold<ITEMS_PER_THREAD, T, ReductionOp>(d_in + (b + 32), len - 32, lane, acc);
    }
    const int valid = len < 32 ? static_cast<int>(len) : 32;
    const T aggregate = WarpReduceT(temp[warp]).Reduce(acc, op, valid);
    if (lane == 0)
    {
      d_out[s] = op(init, aggregate);
    }
    __syncwarp();
  }
}

/**
 * \brief One block per segment, for long segments: same parameters and
 * result as segmented_reduce_warp. Launch: any gridDim.x >= 1
 * (min(num_segments, 2^31 - 1)); blocks stride over the segments.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ReductionOp, typename InputIt,
          typename BeginIt, typename EndIt>
__device__ void segmented_reduce_block(InputIt d_in, long long n, BeginIt d_begin, EndIt d_end,
                                       long long num_segments, T* d_out, T init)
{
  using Tiles =
    detail::BlockTransformReduceTiles<BLOCK_THREADS, ITEMS_PER_THREAD, T, T, detail::IdentityOp, ReductionOp>;
  __shared__ typename Tiles::TempStorage temp;

  for (long long s = blockIdx.x; s < num_segments; s += gridDim.x)
  {
    const detail::Segment seg = detail::segment_bounds(d_begin, d_end, s, n);
    const long long b = seg.begin, len = seg.len;
    if (len == 0) // block-uniform
    {
      if (threadIdx.x == 0)
      {
        d_out[s] = init;
      }
      continue;
    }
    const T aggregate = Tiles::consume(temp, d_in + b, len, 0, 1);
    if (threadIdx.x == 0)
    {
      d_out[s] = ReductionOp()(init, aggregate);
    }
    __syncthreads(); // temp is reused by the next segment
  }
}

/**
 * \brief One thread per segment, for tiny segments: same parameters and
 * result as segmented_reduce_warp. Each thread folds its segment in
 * sequence from init.
 *
 * Block b takes segments [b * BLOCK_THREADS, (b + 1) * BLOCK_THREADS). When
 * the span of their items fits one tile (BLOCK_THREADS * ITEMS_PER_THREAD
 * items, as for segments of at most ITEMS_PER_THREAD items that follow each
 * other) and the tile takes at most 24 KiB, the block loads the span into
 * shared memory, coalesced and ITEMS_PER_THREAD loads in flight per thread,
 * and every thread folds its segment from there, starting at item
 * (lane * len / 32) % len and wrapping around: neighbouring segments of len
 * items then fall in different banks (the operator is commutative). Other
 * blocks fold from global memory: correct for segments of any length.
 *
 * Launch: any gridDim.x >= 1 (ceil(num_segments / BLOCK_THREADS) for one
 * segment per thread); blocks stride over groups of BLOCK_THREADS segments.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ReductionOp, typename InputIt,
          typename BeginIt, typename EndIt>
__device__ void segmented_reduce_thread(InputIt d_in, long long n, BeginIt d_begin, EndIt d_end,
                                        long long num_segments, T* d_out, T init)
{
  static_assert(BLOCK_THREADS % 32 == 0, "gocccl::segmented_reduce: BLOCK_THREADS must be a multiple of 32");
  static_assert(std::is_trivially_copyable<T>::value, "gocccl::segmented_reduce: T must be trivially copyable");
  constexpr int WARPS = BLOCK_THREADS / 32;
  constexpr int TILE  = BLOCK_THREADS * ITEMS_PER_THREAD;
  constexpr bool STAGE = static_cast<long long>(TILE) * sizeof(T) <= 24 * 1024;
  __shared__ alignas(T) unsigned char raw[(STAGE ? TILE : 1) * sizeof(T)];
  __shared__ long long lo_of[WARPS], hi_of[WARPS];
  T* staged = reinterpret_cast<T*>(raw);

  ReductionOp op;
  const int lane = threadIdx.x % 32;
  const long long stride = static_cast<long long>(gridDim.x) * BLOCK_THREADS;
  for (long long first = static_cast<long long>(blockIdx.x) * BLOCK_THREADS; first < num_segments; first += stride)
  {
    const long long s = first + threadIdx.x;
    detail::Segment seg{0, 0};
    if (s < num_segments)
    {
      seg = detail::segment_bounds(d_begin, d_end, s, n);
    }
    T acc = init;
    bool folded = false;
    if constexpr (STAGE)
    {
      long long lo, hi;
      detail::block_span<BLOCK_THREADS>(seg, lo_of, hi_of, lo, hi);
      const long long span = hi > lo ? hi - lo : 0;
      if (span <= TILE) // block-uniform
      {
        T items[ITEMS_PER_THREAD];
#pragma unroll
        for (int j = 0; j < ITEMS_PER_THREAD; ++j)
        {
          const int i = j * BLOCK_THREADS + threadIdx.x;
          if (i < span)
          {
            items[j] = detail::read_item(d_in, lo + i);
          }
        }
#pragma unroll
        for (int j = 0; j < ITEMS_PER_THREAD; ++j)
        {
          const int i = j * BLOCK_THREADS + threadIdx.x;
          if (i < span)
          {
            staged[i] = items[j];
          }
        }
        __syncthreads();
        const int len = static_cast<int>(seg.len); // <= span <= TILE
        if (len > 0)
        {
          const T* p = staged + (seg.begin - lo);
          int k = (lane * len / 32) % len;
          for (int j = 0; j < len; ++j)
          {
            acc = op(acc, p[k]);
            k = k + 1 == len ? 0 : k + 1;
          }
        }
        folded = true;
      }
      __syncthreads(); // lo_of, hi_of and the tile are reused by the next group
    }
    if (!folded)
    {
      for (long long i = 0; i < seg.len; ++i)
      {
        acc = op(acc, detail::read_item(d_in, seg.begin + i));
      }
    }
    if (s < num_segments)
    {
      d_out[s] = acc;
    }
  }
}

/// The lanes of a segment in segmented_reduce_subwarp.
constexpr int SUBWARP_THREADS = 8;

/**
 * \brief SUBWARP_THREADS lanes per segment, for small segments (at most
 * SUBWARP_THREADS * ITEMS_PER_THREAD items, where a whole warp would leave
 * most lanes idle): same parameters and result as segmented_reduce_warp.
 * Lane l seeds its accumulator with item b + l, then folds items b + l +
 * 8k, ITEMS_PER_THREAD loads in flight per step, for a segment of any
 * length; a logical cub::WarpReduce of 8 lanes combines them.
 *
 * Launch: any gridDim.x >= 1 (ceil(num_segments / (BLOCK_THREADS / 8)) for
 * one segment per sub-warp); sub-warps stride over the segments.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ReductionOp, typename InputIt,
          typename BeginIt, typename EndIt>
__device__ void segmented_reduce_subwarp(InputIt d_in, long long n, BeginIt d_begin, EndIt d_end,
                                         long long num_segments, T* d_out, T init)
{
  static_assert(BLOCK_THREADS % 32 == 0, "gocccl::segmented_reduce: BLOCK_THREADS must be a multiple of 32");
  constexpr int LANES  = SUBWARP_THREADS;
  constexpr int GROUPS = BLOCK_THREADS / LANES;
  constexpr int STEP   = LANES * ITEMS_PER_THREAD;
  using WarpReduceT    = cub::WarpReduce<T, LANES>;
  __shared__ typename WarpReduceT::TempStorage temp[GROUPS];

  ReductionOp op;
  const int group = threadIdx.x / LANES;
  const int lane  = threadIdx.x % LANES;
  // The sub-warp's lanes in its warp: sub-warps leave the loop on their own.
  const unsigned mask = ((1u << LANES) - 1) << (threadIdx.x % 32 / LANES * LANES);
  const long long stride = static_cast<long long>(gridDim.x) * GROUPS;
  for (long long s = static_cast<long long>(blockIdx.x) * GROUPS + group; s < num_segments; s += stride)
  {
    const detail::Segment seg = detail::segment_bounds(d_begin, d_end, s, n);
    const long long b = seg.begin, len = seg.len;
    if (len == 0) // uniform in the sub-warp
    {
      if (lane == 0)
      {
        d_out[s] = init;
      }
      continue;
    }
    T acc;
    if (lane < len)
    {
      acc = detail::read_item(d_in, b + lane);
    }
    for (long long i = LANES + lane; i - lane < len; i += STEP) // uniform in the sub-warp
    {
      T items[ITEMS_PER_THREAD];
#pragma unroll
      for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      {
        if (i + j * LANES < len)
        {
          items[j] = detail::read_item(d_in, b + i + j * LANES);
        }
      }
#pragma unroll
      for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      {
        if (i + j * LANES < len)
        {
          acc = op(acc, items[j]);
        }
      }
    }
    const int valid = len < LANES ? static_cast<int>(len) : LANES;
    const T aggregate = WarpReduceT(temp[group]).Reduce(acc, op, valid);
    if (lane == 0)
    {
      d_out[s] = op(init, aggregate);
    }
    __syncwarp(mask);
  }
}

/**
 * \brief segmented_reduce_warp over segments of segment_size (>= 1) items:
 * segment s is [s * segment_size, min((s + 1) * segment_size, n)), so the
 * last may be short. No offsets are read. Launch as segmented_reduce_warp.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ReductionOp, typename InputIt>
__device__ void segmented_reduce_warp_fixed(InputIt d_in, long long n, long long segment_size,
                                            long long num_segments, T* d_out, T init)
{
  segmented_reduce_warp<BLOCK_THREADS, ITEMS_PER_THREAD, T, ReductionOp>(
    d_in, n, detail::FixedOffsets<false>{segment_size}, detail::FixedOffsets<true>{segment_size}, num_segments,
    d_out, init);
}

/**
 * \brief segmented_reduce_block over segments of segment_size items, as
 * segmented_reduce_warp_fixed. Launch as segmented_reduce_block.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ReductionOp, typename InputIt>
__device__ void segmented_reduce_block_fixed(InputIt d_in, long long n, long long segment_size,
                                             long long num_segments, T* d_out, T init)
{
  segmented_reduce_block<BLOCK_THREADS, ITEMS_PER_THREAD, T, ReductionOp>(
    d_in, n, detail::FixedOffsets<false>{segment_size}, detail::FixedOffsets<true>{segment_size}, num_segments,
    d_out, init);
}

/**
 * \brief segmented_reduce_thread over segments of segment_size items, as
 * segmented_reduce_warp_fixed. Launch as segmented_reduce_thread.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ReductionOp, typename InputIt>
__device__ void segmented_reduce_thread_fixed(InputIt d_in, long long n, long long segment_size,
                                              long long num_segments, T* d_out, T init)
{
  segmented_reduce_thread<BLOCK_THREADS, ITEMS_PER_THREAD, T, ReductionOp>(
    d_in, n, detail::FixedOffsets<false>{segment_size}, detail::FixedOffsets<true>{segment_size}, num_segments,
    d_out, init);
}

/**
 * \brief segmented_reduce_subwarp over segments of segment_size items, as
 * segmented_reduce_warp_fixed. Launch as segmented_reduce_subwarp.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ReductionOp, typename InputIt>
__device__ void segmented_reduce_subwarp_fixed(InputIt d_in, long long n, long long segment_size,
                                               long long num_segments, T* d_out, T init)
{
  segmented_reduce_subwarp<BLOCK_THREADS, ITEMS_PER_THREAD, T, ReductionOp>(
    d_in, n, detail::FixedOffsets<false>{segment_size}, detail::FixedOffsets<true>{segment_size}, num_segments,
    d_out, init);
}

} // namespace gocccl
