/*
 * gocccl/block_scan_rolled_fold.cuh: a block-wide scan with the results of
 * cub::BlockScan<T, BLOCK_THREADS, cub::BLOCK_SCAN_WARP_SCANS>, bit for bit,
 * whose fold of the warps' totals is a rolled loop.
 *
 * CUB's BlockScanWarpScans::ComputeWarpPrefix folds the warps' totals in a
 * chain unrolled by templates (ApplyWarpAggregates): ptxas issues every
 * total's shared-memory load at once, so a block of 7 or 9 warps keeps 7–9
 * totals live beside the items (bench/NOTES.md, 2026-12-04, sixth session:
 * the by-key sweeps' peak of registers sits there, not in the look-back).
 * Here the fold is a loop that is not unrolled (`#pragma unroll 1`): each
 * total is loaded as it is used, one live at a time.
 *
 * Every other step is CUB's, in CUB's order, so the results equal CUB's for
 * any associative operator, floats included (no operand is reassociated):
 *   - a thread's items folded sequentially, left to right (what
 *     cub::ThreadReduce does for the pairs of scan_by_key and for any
 *     operator that is not one of CUB's own: ThreadReduceSequential);
 *   - cub::WarpScan over the threads' partials, its Scan (inclusive and
 *     exclusive at once) or InclusiveScan exactly where BlockScanWarpScans
 *     calls them;
 *   - the warps' totals folded from warp 0 up, a warp's prefix the fold of
 *     the warps before it (warp 0's undefined and never used), then
 *     op(warp prefix, lane's result), lane 0 of an exclusive scan taking the
 *     warp prefix itself;
 *   - warp 0 calls the prefix callback with the block's aggregate, lane 0
 *     shares its result through shared memory, and every thread but thread 0
 *     (exclusive) or every thread (inclusive) applies op(block prefix, x);
 *   - ThreadScanExclusive / ThreadScanInclusive over the thread's items
 *     seeded with the thread's prefix, thread 0 unseeded where CUB leaves it
 *     so; InclusiveScan of one item a thread takes CUB's one-item path.
 * Barriers: the same as CUB's (one after the warps' totals are written, one
 * after the block prefix is shared); as with cub::BlockScan, a caller that
 * reuses the storage puts a barrier between two scans.
 *
 * Only the members scan_by_key.cuh and reduce_by_key.cuh could use are here:
 * single item and arrays; Inclusive/ExclusiveScan with no initial value, a
 * block aggregate or a prefix callback; ExclusiveScan with an initial value.
 * T trivially copyable; blockDim = (BLOCK_THREADS, 1, 1), BLOCK_THREADS a
 * multiple of 32. Shared memory: the same members as CUB's _TempStorage
 * (the warps' totals, the warp scans' storage, the block prefix).
 *
 * Written against CUB 1.17 (CUDA 11.8) and CCCL 3 (CUDA 13): it uses only
 * cub::WarpScan, cub::Uninitialized and plain shared-memory assignments.
 * Used by scan_by_key.cuh under GOCCCL_EXPERIMENT_BYKEY_FOLD (issue 38).
 */
#pragma once

#include <gocccl/config.cuh>

#include <cub/util_type.cuh>
#include <cub/warp/warp_scan.cuh>

namespace gocccl {
namespace detail {

template <typename T, int BLOCK_THREADS>
struct BlockScanRolledFold
{
  static_assert(BLOCK_THREADS > 0 && BLOCK_THREADS % 32 == 0,
                "gocccl::BlockScanRolledFold: BLOCK_THREADS must be a multiple of 32");

  static constexpr int WARP_THREADS = 32;
  static constexpr int WARPS        = BLOCK_THREADS / WARP_THREADS;

  using WarpScanT = cub::WarpScan<T, WARP_THREADS>;

  struct _TempStorage
  {
    T warp_aggregates[WARPS];
    typename WarpScanT::TempStorage warp_scan[WARPS];
    T block_prefix;
  };
  struct TempStorage : cub::Uninitialized<_TempStorage>
  {};

  _TempStorage& s;
  unsigned linear_tid;
  unsigned warp_id;
  unsigned lane_id;

  GOCCCL_DEVICE explicit BlockScanRolledFold(TempStorage& storage)
      : s(storage.Alias())
      , linear_tid(threadIdx.x)
      , warp_id(WARPS == 1 ? 0 : threadIdx.x / WARP_THREADS)
      , lane_id(threadIdx.x % WARP_THREADS)
  {}

  // ---- thread-level steps (CUB's ThreadReduce / ThreadScan*) ----------

  /// Folds a thread's items left to right (ThreadReduceSequential).
  template <int N, typename ScanOp>
  static GOCCCL_DEVICE T thread_reduce(const T (&input)[N], ScanOp op)
  {
    T r = input[0];
#pragma unroll
    for (int i = 1; i < N; ++i)
    {
      r = op(r, input[i]);
    }
    return r;
  }

  /// cub::internal::ThreadScanExclusive(input, output, op, prefix, apply).
  template <int N, typename ScanOp>
  static GOCCCL_DEVICE void thread_scan_exclusive(const T (&input)[N], T (&output)[N], ScanOp op, T prefix,
                                                  bool apply_prefix = true)
  {
    T inclusive = input[0];
    if (apply_prefix)
    {
      inclusive = op(prefix, inclusive);
    }
    output[0]   = prefix;
    T exclusive = inclusive;
#pragma unroll
    for (int i = 1; i < N; ++i)
    {
      inclusive = op(exclusive, input[i]);
      output[i] = exclusive;
      exclusive = inclusive;
    }
  }

  /// cub::internal::ThreadScanInclusive(input, output, op, prefix, apply).
  template <int N, typename ScanOp>
  static GOCCCL_DEVICE void thread_scan_inclusive(const T (&input)[N], T (&output)[N], ScanOp op, T prefix,
                                                  bool apply_prefix = true)
  {
    T inclusive = input[0];
    if (apply_prefix)
    {
      inclusive = op(prefix, inclusive);
    }
    output[0] = inclusive;
#pragma unroll
    for (int i = 1; i < N; ++i)
    {
      inclusive = op(inclusive, input[i]);
      output[i] = inclusive;
    }
  }

  // ---- the warps' totals ----------------------------------------------

  /// ComputeWarpPrefix: the last lane of each warp shares the warp's total;
  /// after a barrier every thread folds the totals from warp 0 up in a
  /// rolled loop, keeping the fold before its own warp's total as its
  /// warp's prefix (undefined for warp 0). block_aggregate: all totals.
  template <typename ScanOp>
  GOCCCL_DEVICE T warp_prefix(ScanOp op, const T& warp_aggregate, T& block_aggregate)
  {
    if (lane_id == WARP_THREADS - 1)
    {
      s.warp_aggregates[warp_id] = warp_aggregate;
    }
    __syncthreads();
    block_aggregate = s.warp_aggregates[0];
    T prefix        = block_aggregate; // warp 0: never used
#pragma unroll 1
    for (int w = 1; w < WARPS; ++w)
    {
      if (warp_id == static_cast<unsigned>(w))
      {
        prefix = block_aggregate;
      }
      block_aggregate = op(block_aggregate, s.warp_aggregates[w]);
    }
    return prefix;
  }

  /// ComputeWarpPrefix with an initial value: warp 0's prefix is init,
  /// the others' op(init, prefix).
  template <typename ScanOp>
  GOCCCL_DEVICE T warp_prefix(ScanOp op, const T& warp_aggregate, T& block_aggregate, const T& init)
  {
    T prefix = warp_prefix(op, warp_aggregate, block_aggregate);
    prefix   = op(init, prefix);
    if (warp_id == 0)
    {
      prefix = init;
    }
    return prefix;
  }

  // ---- one item a thread ----------------------------------------------

  /// Exclusive scan, no initial value (thread 0's output undefined).
  template <typename ScanOp>
  GOCCCL_DEVICE void ExclusiveScan(T input, T& output, ScanOp op, T& block_aggregate)
  {
    T inclusive;
    WarpScanT(s.warp_scan[warp_id]).Scan(input, inclusive, output, op);
    const T prefix = warp_prefix(op, inclusive, block_aggregate);
    if (warp_id != 0)
    {
      output = op(prefix, output);
      if (lane_id == 0)
      {
        output = prefix;
      }
    }
  }

  template <typename ScanOp>
  GOCCCL_DEVICE void ExclusiveScan(T input, T& output, ScanOp op)
  {
    T block_aggregate;
    ExclusiveScan(input, output, op, block_aggregate);
  }

  /// Exclusive scan seeded with init.
  template <typename ScanOp>
  GOCCCL_DEVICE void ExclusiveScan(T input, T& output, const T& init, ScanOp op, T& block_aggregate)
  {
    T inclusive;
    WarpScanT(s.warp_scan[warp_id]).Scan(input, inclusive, output, op);
    const T prefix = warp_prefix(op, inclusive, block_aggregate, init);
    output         = op(prefix, output);
    if (lane_id == 0)
    {
      output = prefix;
    }
  }

  template <typename ScanOp>
  GOCCCL_DEVICE void ExclusiveScan(T input, T& output, const T& init, ScanOp op)
  {
    T block_aggregate;
    ExclusiveScan(input, output, init, op, block_aggregate);
  }

  /// Exclusive scan seeded by the callback (called by warp 0 with the
  /// block's aggregate; lane 0's result is the block's prefix).
  template <typename ScanOp, typename PrefixCallback>
  GOCCCL_DEVICE void ExclusiveScan(T input, T& output, ScanOp op, PrefixCallback& callback)
  {
    T block_aggregate;
    ExclusiveScan(input, output, op, block_aggregate);
    if (warp_id == 0)
    {
      const T block_prefix = callback(block_aggregate);
      if (lane_id == 0)
      {
        s.block_prefix = block_prefix;
        output         = block_prefix;
      }
    }
    __syncthreads();
    const T block_prefix = s.block_prefix;
    if (linear_tid > 0)
    {
      output = op(block_prefix, output);
    }
  }

  template <typename ScanOp>
  GOCCCL_DEVICE void InclusiveScan(T input, T& output, ScanOp op, T& block_aggregate)
  {
    WarpScanT(s.warp_scan[warp_id]).InclusiveScan(input, output, op);
    const T prefix = warp_prefix(op, output, block_aggregate);
    if (warp_id != 0)
    {
      output = op(prefix, output);
    }
  }

  template <typename ScanOp>
  GOCCCL_DEVICE void InclusiveScan(T input, T& output, ScanOp op)
  {
    T block_aggregate;
    InclusiveScan(input, output, op, block_aggregate);
  }

  template <typename ScanOp, typename PrefixCallback>
  GOCCCL_DEVICE void InclusiveScan(T input, T& output, ScanOp op, PrefixCallback& callback)
  {
    T block_aggregate;
    InclusiveScan(input, output, op, block_aggregate);
    if (warp_id == 0)
    {
      const T block_prefix = callback(block_aggregate);
      if (lane_id == 0)
      {
        s.block_prefix = block_prefix;
      }
    }
    __syncthreads();
    output = op(s.block_prefix, output);
  }

  // ---- arrays of N items a thread (blocked) ---------------------------

  template <int N, typename ScanOp>
  GOCCCL_DEVICE void ExclusiveScan(const T (&input)[N], T (&output)[N], ScanOp op, T& block_aggregate)
  {
    T partial = thread_reduce(input, op);
    ExclusiveScan(partial, partial, op, block_aggregate);
    thread_scan_exclusive(input, output, op, partial, linear_tid != 0);
  }

  template <int N, typename ScanOp>
  GOCCCL_DEVICE void ExclusiveScan(const T (&input)[N], T (&output)[N], ScanOp op)
  {
    T partial = thread_reduce(input, op);
    ExclusiveScan(partial, partial, op);
    thread_scan_exclusive(input, output, op, partial, linear_tid != 0);
  }

  template <int N, typename ScanOp>
  GOCCCL_DEVICE void ExclusiveScan(const T (&input)[N], T (&output)[N], const T& init, ScanOp op, T& block_aggregate)
  {
    T prefix = thread_reduce(input, op);
    ExclusiveScan(prefix, prefix, init, op, block_aggregate);
    thread_scan_exclusive(input, output, op, prefix);
  }

  template <int N, typename ScanOp>
  GOCCCL_DEVICE void ExclusiveScan(const T (&input)[N], T (&output)[N], const T& init, ScanOp op)
  {
    T prefix = thread_reduce(input, op);
    ExclusiveScan(prefix, prefix, init, op);
    thread_scan_exclusive(input, output, op, prefix);
  }

  template <int N, typename ScanOp, typename PrefixCallback>
  GOCCCL_DEVICE void ExclusiveScan(const T (&input)[N], T (&output)[N], ScanOp op, PrefixCallback& callback)
  {
    T prefix = thread_reduce(input, op);
    ExclusiveScan(prefix, prefix, op, callback);
    thread_scan_exclusive(input, output, op, prefix);
  }

  template <int N, typename ScanOp>
  GOCCCL_DEVICE void InclusiveScan(const T (&input)[N], T (&output)[N], ScanOp op, T& block_aggregate)
  {
    if constexpr (N == 1)
    {
      InclusiveScan(input[0], output[0], op, block_aggregate);
    }
    else
    {
      T prefix = thread_reduce(input, op);
      ExclusiveScan(prefix, prefix, op, block_aggregate);
      thread_scan_inclusive(input, output, op, prefix, linear_tid != 0);
    }
  }

  template <int N, typename ScanOp>
  GOCCCL_DEVICE void InclusiveScan(const T (&input)[N], T (&output)[N], ScanOp op)
  {
    if constexpr (N == 1)
    {
      InclusiveScan(input[0], output[0], op);
    }
    else
    {
      T prefix = thread_reduce(input, op);
      ExclusiveScan(prefix, prefix, op);
      thread_scan_inclusive(input, output, op, prefix, linear_tid != 0);
    }
  }

  template <int N, typename ScanOp, typename PrefixCallback>
  GOCCCL_DEVICE void InclusiveScan(const T (&input)[N], T (&output)[N], ScanOp op, PrefixCallback& callback)
  {
    if constexpr (N == 1)
    {
      InclusiveScan(input[0], output[0], op, callback);
    }
    else
    {
      T prefix = thread_reduce(input, op);
      ExclusiveScan(prefix, prefix, op, callback);
      thread_scan_inclusive(input, output, op, prefix);
    }
  }
};

} // namespace detail
} // namespace gocccl
