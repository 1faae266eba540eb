/*
 * gocccl/segmented_scan.cuh: one prefix scan per segment (the kernel side of
 * runtime.SegmentedInclusiveScan / SegmentedExclusiveScan, as CUB 3.3's
 * cub::DeviceSegmentedScan). Within a segment [b, e):
 *
 *   inclusive  d_out[i] = [init op] d_in[b] op ... op d_in[i]
 *   exclusive  d_out[b] = init, d_out[i] = init op d_in[b] op ... op d_in[i-1]
 *
 * Items outside every segment are neither read nor written.
 *
 * Two kernels with the same policy; the host picks one per call:
 *
 *   <sym>_block  segmented_scan_block  segments given by begin and end
 *                                      offsets: one block per segment
 *                                      (grid-stride), which scans the
 *                                      segment tile by tile, carrying the
 *                                      running aggregate from tile to tile
 *                                      through cub::BlockScan's block prefix
 *                                      callback. No look-back and no
 *                                      scratch: segments may overlap, leave
 *                                      gaps and come in any order, as in
 *                                      CUB (whose agent is block-, warp- or
 *                                      thread-per-segment as well).
 *   <sym>_fixed  segmented_scan_fixed  segments of segment_size items (the
 *                                      last may be short). When a segment
 *                                      fits a tile, block c scans the
 *                                      TILE / segment_size whole segments
 *                                      of chunk c at once: a block scan of
 *                                      (head, value) pairs with
 *                                      scan_by_key.cuh's SegmentedOp, heads
 *                                      where (i - chunk start) is a multiple
 *                                      of segment_size, no look-back and no
 *                                      carry between blocks. Longer segments
 *                                      take a block each, as _block does.
 *
 * Offsets are trusted as in CUB, but never to the point of reading or
 * writing out of bounds: each segment is clamped to [0, n) and one with
 * end <= begin is empty (segment_bounds of segmented_reduce.cuh). The host
 * checks them on the CPU backend only.
 *
 * Operators: ScanOp associative, not necessarily commutative (operands stay
 * in index order). It is applied as written: no NaN twin (gpu_nan.cuh) yet.
 * d_out may be d_in itself (every item is read before its tile is written,
 * and a block reads and writes only its own segments' items); a segment must
 * not overlap another when d_out is d_in.
 *
 * Requirements: T trivially copyable and default constructible; ScanOp
 * default-constructible, `T operator()(T, T) const`. Offsets are int64.
 * Launch with blockDim.x == BLOCK_THREADS.
 */
#pragma once

#include <gocccl/config.cuh>
#include <gocccl/scan_by_key.cuh>
#include <gocccl/segmented_reduce.cuh>

#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/util_type.cuh>

#include <type_traits>

namespace gocccl {
namespace detail {

/// The block prefix callback of a segment's later tiles: returns the
/// aggregate of the tiles before and folds in this tile's.
template <typename T, typename ScanOp>
struct RunningPrefix
{
  T running;
  GOCCCL_DEVICE T operator()(const T& aggregate)
  {
    const T before = running;
    running        = ScanOp()(before, aggregate);
    return before;
  }
};

/// One thread block's scans of whole segments.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ScanOp>
struct SegmentedScanTile
{
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;

  static_assert(BLOCK_THREADS > 0 && BLOCK_THREADS % 32 == 0 && BLOCK_THREADS <= 1024,
                "gocccl::segmented_scan: BLOCK_THREADS must be a multiple of 32 in [32, 1024]");
  static_assert(ITEMS_PER_THREAD > 0, "gocccl::segmented_scan: ITEMS_PER_THREAD must be positive");
  static_assert(std::is_trivially_copyable<T>::value, "gocccl::segmented_scan: T must be trivially copyable");

  using Pair        = cub::KeyValuePair<int, T>;
  using PairOp      = SegmentedOp<T, ScanOp>;
  using LoadT       = cub::BlockLoad<T, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using StoreT      = cub::BlockStore<T, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using BlockScanT  = cub::BlockScan<T, BLOCK_THREADS, cub::BLOCK_SCAN_WARP_SCANS>;
  using PairScanT   = cub::BlockScan<Pair, BLOCK_THREADS, cub::BLOCK_SCAN_WARP_SCANS>;

  union Storage
  {
    typename LoadT::TempStorage load;
    typename StoreT::TempStorage store;
    typename BlockScanT::TempStorage scan;
    typename PairScanT::TempStorage pairs;
  };
  using TempStorage = cub::Uninitialized<Storage>;

  /// Loads items [offset, offset + valid) of d_in (slots past valid repeat
  /// item offset; never stored).
  template <typename InputIt>
  static GOCCCL_DEVICE void load(Storage& temp, InputIt d_in, long long offset, int valid, T (&items)[ITEMS_PER_THREAD])
  {
    if (valid == TILE_ITEMS)
    {
      LoadT(temp.load).Load(d_in + offset, items);
    }
    else
    {
      LoadT(temp.load).Load(d_in + offset, items, valid, *(d_in + offset));
    }
    __syncthreads();
  }

  template <typename OutputIt>
  static GOCCCL_DEVICE void store(Storage& temp, OutputIt d_out, long long offset, int valid,
                                  T (&items)[ITEMS_PER_THREAD])
  {
    __syncthreads();
    if (valid == TILE_ITEMS)
    {
      StoreT(temp.store).Store(d_out + offset, items);
    }
    else
    {
      StoreT(temp.store).Store(d_out + offset, items, valid);
    }
    __syncthreads(); // temp is reused by the next tile
  }

  /// Scans the segment [begin, begin + len), len >= 1, tile by tile.
  template <bool INCLUSIVE, typename InputIt, typename OutputIt>
  static GOCCCL_DEVICE void segment(Storage& temp, InputIt d_in, OutputIt d_out, long long begin, long long len,
                                    const T& init, bool has_init)
  {
    RunningPrefix<T, ScanOp> prefix{init};
    bool seeded = !INCLUSIVE || has_init; // block-uniform
    for (long long done = 0; done < len; done += TILE_ITEMS)
    {
      const int valid = len - done < TILE_ITEMS ? static_cast<int>(len - done) : TILE_ITEMS;
      T items[ITEMS_PER_THREAD];
      load(temp, d_in, begin + done, valid, items);
      if (!seeded)
      {
        // The first tile of an inclusive scan without init; its aggregate
        // (junk past valid only when the segment ends here) seeds the rest.
        T aggregate;
        BlockScanT(temp.scan).InclusiveScan(items, items, ScanOp(), aggregate);
        prefix.running = aggregate;
        seeded         = true;
      }
      else if (INCLUSIVE)
      {
        BlockScanT(temp.scan).InclusiveScan(items, items, ScanOp(), prefix);
      }
      else
      {
        BlockScanT(temp.scan).ExclusiveScan(items, items, ScanOp(), prefix);
      }
      store(temp, d_out, begin + done, valid, items);
    }
  }

  /// Scans the whole segments of segment_size items (<= TILE_ITEMS) in
  /// [offset, offset + valid): heads every segment_size items from offset.
  template <bool INCLUSIVE, typename InputIt, typename OutputIt>
  static GOCCCL_DEVICE void packed(Storage& temp, InputIt d_in, OutputIt d_out, long long offset, int valid,
                                   int segment_size, const T& init, bool has_init)
  {
    T items[ITEMS_PER_THREAD];
    load(temp, d_in, offset, valid, items);
    Pair pairs[ITEMS_PER_THREAD];
    int r = (threadIdx.x * ITEMS_PER_THREAD) % segment_size;
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      pairs[i].key   = r == 0;
      pairs[i].value = items[i];
      r              = r + 1 == segment_size ? 0 : r + 1;
    }
    ScanOp op;
    if (INCLUSIVE)
    {
      PairScanT(temp.pairs).InclusiveScan(pairs, pairs, PairOp());
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        items[i] = has_init ? op(init, pairs[i].value) : pairs[i].value;
      }
    }
    else
    {
      // Thread 0's first result is undefined, but item 0 is a head.
      int heads[ITEMS_PER_THREAD];
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        heads[i] = pairs[i].key;
      }
      PairScanT(temp.pairs).ExclusiveScan(pairs, pairs, PairOp());
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        items[i] = heads[i] ? init : op(init, pairs[i].value);
      }
    }
    store(temp, d_out, offset, valid, items);
  }
};

} // namespace detail

/**
 * \brief One block per segment: scans d_in[begin[s]:end[s]] into the same
 * items of d_out for every s in [0, num_segments).
 *
 * \param d_in, d_out   input and output, n items (iterators or pointers)
 * \param n             item count (segments are clamped to [0, n))
 * \param d_begin       num_segments begin offsets (int64)
 * \param d_end         num_segments end offsets (int64)
 * \param num_segments  segment count
 * \param init          the seed of every segment (exclusive; inclusive when has_init)
 * \param has_init      whether an inclusive scan has init (ignored by the exclusive one)
 *
 * Launch: any gridDim.x >= 1 (min(num_segments, 2^31 - 1)); blocks stride
 * over the segments.
 */
template <bool INCLUSIVE, int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ScanOp, typename InputIt,
          typename OutputIt, typename BeginIt, typename EndIt>
GOCCCL_DEVICE void segmented_scan_block(InputIt d_in, OutputIt d_out, long long n, BeginIt d_begin, EndIt d_end,
                                        long long num_segments, T init, bool has_init)
{
  using Tile = detail::SegmentedScanTile<BLOCK_THREADS, ITEMS_PER_THREAD, T, ScanOp>;
  __shared__ typename Tile::TempStorage temp;
  for (long long s = blockIdx.x; s < num_segments; s += gridDim.x)
  {
    const detail::Segment seg = detail::segment_bounds(d_begin, d_end, s, n);
    if (seg.len > 0) // block-uniform
    {
      Tile::template segment<INCLUSIVE>(temp.Alias(), d_in, d_out, seg.begin, seg.len, init, has_init);
    }
  }
}

/**
 * \brief Segments of segment_size items: segment s is [s * segment_size,
 * min((s + 1) * segment_size, n)). Otherwise as segmented_scan_block.
 *
 * \param segment_size  >= 1
 *
 * Launch: any gridDim.x >= 1. With segment_size <= TILE_ITEMS, blocks stride
 * over chunks of TILE_ITEMS / segment_size segments
 * (ceil(n / chunk items) chunks); otherwise over segments
 * (ceil(n / segment_size)).
 */
template <bool INCLUSIVE, int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ScanOp, typename InputIt,
          typename OutputIt>
GOCCCL_DEVICE void segmented_scan_fixed(InputIt d_in, OutputIt d_out, long long n, long long segment_size, T init,
                                        bool has_init)
{
  using Tile = detail::SegmentedScanTile<BLOCK_THREADS, ITEMS_PER_THREAD, T, ScanOp>;
  __shared__ typename Tile::TempStorage temp;
  if (segment_size < 1)
  {
    return;
  }
  if (segment_size <= Tile::TILE_ITEMS)
  {
    const long long chunk = (Tile::TILE_ITEMS / segment_size) * segment_size;
    for (long long offset = blockIdx.x * chunk; offset < n; offset += gridDim.x * chunk)
    {
      const int valid = n - offset < chunk ? static_cast<int>(n - offset) : static_cast<int>(chunk);
      Tile::template packed<INCLUSIVE>(temp.Alias(), d_in, d_out, offset, valid, static_cast<int>(segment_size), init,
                                       has_init);
    }
    return;
  }
  const long long num_segments = (n + segment_size - 1) / segment_size;
  for (long long s = blockIdx.x; s < num_segments; s += gridDim.x)
  {
    const long long begin = s * segment_size;
    const long long len   = n - begin < segment_size ? n - begin : segment_size;
    Tile::template segment<INCLUSIVE>(temp.Alias(), d_in, d_out, begin, len, init, has_init);
  }
}

/// The entry points' templates, by scan kind (internal/algo/segmented_scan.go).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ScanOp, typename InputIt, typename OutputIt,
          typename BeginIt, typename EndIt>
__device__ void segmented_inclusive_scan_block(InputIt d_in, OutputIt d_out, long long n, BeginIt d_begin,
                                               EndIt d_end, long long num_segments, T init, bool has_init)
{
  segmented_scan_block<true, BLOCK_THREADS, ITEMS_PER_THREAD, T, ScanOp>(d_in, d_out, n, d_begin, d_end, num_segments,
                                                                         init, has_init);
}

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ScanOp, typename InputIt, typename OutputIt,
          typename BeginIt, typename EndIt>
__device__ void segmented_exclusive_scan_block(InputIt d_in, OutputIt d_out, long long n, BeginIt d_begin,
                                               EndIt d_end, long long num_segments, T init, bool has_init)
{
  segmented_scan_block<false, BLOCK_THREADS, ITEMS_PER_THREAD, T, ScanOp>(d_in, d_out, n, d_begin, d_end,
                                                                          num_segments, init, has_init);
}

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ScanOp, typename InputIt, typename OutputIt>
__device__ void segmented_inclusive_scan_fixed(InputIt d_in, OutputIt d_out, long long n, long long segment_size,
                                               T init, bool has_init)
{
  segmented_scan_fixed<true, BLOCK_THREADS, ITEMS_PER_THREAD, T, ScanOp>(d_in, d_out, n, segment_size, init, has_init);
}

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ScanOp, typename InputIt, typename OutputIt>
__device__ void segmented_exclusive_scan_fixed(InputIt d_in, OutputIt d_out, long long n, long long segment_size,
                                               T init, bool has_init)
{
  segmented_scan_fixed<false, BLOCK_THREADS, ITEMS_PER_THREAD, T, ScanOp>(d_in, d_out, n, segment_size, init,
                                                                          has_init);
}

} // namespace gocccl
