/*
 * gocccl/three_way_single.cuh: the single-tile three-way partition, a kernel
 * of one block for the calls of runtime.ThreeWayPartition whose n items fit
 * one tile of the policy (select.cuh's three_way_partition over one tile).
 *
 *   <sym>_single  grid 1, 1 <= n <= TILE: one block partitions all n items
 *                 in the smallest tile of BLOCK_THREADS x I items that holds
 *                 them, I from detail::select::ThreeWaySingleItems (4, 8),
 *                 else the policy's BLOCK_THREADS x ITEMS_PER_THREAD. No
 *                 look-back, no tile states, no epoch, no scratch.
 *
 * Why: a one-tile call of the sweep already skips the look-back, but it runs
 * the policy's tile whatever n is: on sm_90, 4-byte items take 256 x 23
 * (5888 slots), so at n = 2^10 each thread loads, flags, scans and stages 23
 * slots of which 4 hold items (bench/NOTES.md, ThreeWayPartition at 2^10:
 * 12.4 / 11.8 us for uint32 / float32, CUB faster). A tile of 256 x 4 holds
 * 2^10 whole; 256 x 8 holds up to 2048.
 *
 * The result is the sweep's over one tile, item for item: items past n are
 * loaded as the last valid item (operators only ever see input values) and
 * flagged in no part; part 1 (First holds), part 2 (Second holds, First
 * not) and the rest are staged in shared memory in that order, each in input
 * order, and written from there to d_first[0:k1], d_second[0:k2] and
 * d_unselected[0:n-k1-k2]; d_count[0] = k1, d_count[1] = k2 (the sweep's
 * tile 0, whose prefix is zero).
 *
 * STATE: not run on a GPU yet (nineteenth session, bench/NOTES.md).
 * bench/cub/tune/compact_tune.cu --only small checks and times it beside
 * CUB and today's sweep; patches/issue38/three-way-small.patch makes it
 * ThreeWayPartition's kernel "single" (internal/algo/select.go, the runtime's
 * compactSingle). Without that patch no algorithm description names it, no
 * generated package includes this header, and today's kernels are unchanged.
 *
 * Compiles with CUB 1.17 (nvcc 11.8) and CCCL 3 (nvcc 13).
 */
#pragma once

#include <gocccl/select.cuh>

#include <utility>

namespace gocccl {
namespace detail {
namespace select {

/// The items per thread of the single-tile three-way partition's smaller
/// tiles, fewest first: n items take the first tile of BLOCK_THREADS x
/// items that holds them, else the policy's BLOCK_THREADS x
/// ITEMS_PER_THREAD; items at or above ITEMS_PER_THREAD are skipped. On
/// sm_90 with 4-byte items (256 x 23) the rungs are 256 x 4 up to 1024
/// items, 256 x 8 up to 2048, then 256 x 23 up to 5888.
using ThreeWaySingleItems = std::integer_sequence<int, 4, 8>;

/// One block's three-way partition of n items in a single tile of
/// BLOCK_THREADS x ITEMS_PER_THREAD (1 <= n <= TILE): ThreeWay::run of
/// select.cuh for tile 0 of a grid of one, without the look-back, its
/// storage and its barrier. Independent of blockIdx.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T>
struct ThreeWayTile
{
  static constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
  using BlockLoadT = typename Loader<BLOCK_THREADS, ITEMS_PER_THREAD, T>::BlockLoadT;
  using P = Pair<int>;
  using BlockScanT = cub::BlockScan<P, BLOCK_THREADS, cub::BLOCK_SCAN_WARP_SCANS>;

  union TempStorage
  {
    typename BlockLoadT::TempStorage load;
    typename BlockScanT::TempStorage scan;
    Staging<T, TILE> staging;
  };

  /// Position of item i of this thread within the tile (blocked arrangement).
  static GOCCCL_DEVICE int at(int i) { return static_cast<int>(threadIdx.x) * ITEMS_PER_THREAD + i; }

  template <typename First, typename Second, typename InputIt, typename FirstIt, typename SecondIt,
            typename UnselectedIt, typename CountIt>
  static GOCCCL_DEVICE void run(TempStorage& temp, InputIt d_in, FirstIt d_first, SecondIt d_second,
                                UnselectedIt d_unselected, CountIt d_count, int n)
  {
    T items[ITEMS_PER_THREAD];
    if (n == TILE)
    {
      BlockLoadT(temp.load).Load(d_in, items);
    }
    else
    {
      const T fill = d_in[n - 1];
      BlockLoadT(temp.load).Load(d_in, items, n, fill);
    }

    First first;
    Second second;
    P flags[ITEMS_PER_THREAD], ranks[ITEMS_PER_THREAD];
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const bool valid = at(i) < n;
      const bool one = valid && first(items[i]);
      const bool two = valid && !one && second(items[i]);
      flags[i] = P{one ? 1 : 0, two ? 1 : 0};
    }
    __syncthreads(); // load storage is reused by the scan
    P kept;
    BlockScanT(temp.scan).ExclusiveScan(flags, ranks, P{0, 0}, SumSumOp(), kept);

    // Stage part 1, part 2, then the unselected items, each in order.
    T* st = temp.staging.items();
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int pos = at(i);
      if (pos < n)
      {
        const int to = flags[i].a ? ranks[i].a
                     : flags[i].b ? kept.a + ranks[i].b
                                  : kept.a + kept.b + (pos - ranks[i].a - ranks[i].b);
        st[to] = items[i];
      }
    }
    __syncthreads();
    for (int k = threadIdx.x; k < n; k += BLOCK_THREADS)
    {
      if (k < kept.a)
      {
        d_first[k] = st[k];
      }
      else if (k < kept.a + kept.b)
      {
        d_second[k - kept.a] = st[k];
      }
      else
      {
        d_unselected[k - kept.a - kept.b] = st[k];
      }
    }
    if (threadIdx.x == 0)
    {
      d_count[0] = static_cast<long long>(kept.a);
      d_count[1] = static_cast<long long>(kept.b);
    }
  }
};

/// The single-tile partition over the rungs Items (an std::integer_sequence
/// of items per thread), then the policy's tile, which traps for n > TILE
/// (the host launches the kernel only for one tile: never scribble).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Items>
struct ThreeWaySingle;

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T>
struct ThreeWaySingle<BLOCK_THREADS, ITEMS_PER_THREAD, T, std::integer_sequence<int>>
{
  using TileT = ThreeWayTile<BLOCK_THREADS, ITEMS_PER_THREAD, T>;
  using TempStorage = typename TileT::TempStorage;

  template <typename First, typename Second, typename InputIt, typename FirstIt, typename SecondIt,
            typename UnselectedIt, typename CountIt>
  static GOCCCL_DEVICE void run(TempStorage& temp, InputIt d_in, FirstIt d_first, SecondIt d_second,
                                UnselectedIt d_unselected, CountIt d_count, long long n)
  {
    if (n > TileT::TILE)
    {
      __trap(); // the host chose the single tile wrong: fail the launch
    }
    TileT::template run<First, Second>(temp, d_in, d_first, d_second, d_unselected, d_count, static_cast<int>(n));
  }
};

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, int ITEMS, int... MORE>
struct ThreeWaySingle<BLOCK_THREADS, ITEMS_PER_THREAD, T, std::integer_sequence<int, ITEMS, MORE...>>
{
  static constexpr bool USED = ITEMS < ITEMS_PER_THREAD;
  using TileT = ThreeWayTile<BLOCK_THREADS, USED ? ITEMS : ITEMS_PER_THREAD, T>;
  using Next = ThreeWaySingle<BLOCK_THREADS, ITEMS_PER_THREAD, T, std::integer_sequence<int, MORE...>>;

  union TempStorage
  {
    typename TileT::TempStorage here;
    typename Next::TempStorage next;
  };

  template <typename First, typename Second, typename InputIt, typename FirstIt, typename SecondIt,
            typename UnselectedIt, typename CountIt>
  static GOCCCL_DEVICE void run(TempStorage& temp, InputIt d_in, FirstIt d_first, SecondIt d_second,
                                UnselectedIt d_unselected, CountIt d_count, long long n)
  {
    if constexpr (USED)
    {
      if (n <= TileT::TILE)
      {
        TileT::template run<First, Second>(temp.here, d_in, d_first, d_second, d_unselected, d_count,
                                           static_cast<int>(n));
        return;
      }
    }
    Next::template run<First, Second>(temp.next, d_in, d_first, d_second, d_unselected, d_count, n);
  }
};

/// The single-tile three-way partition of an instance's policy.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T>
using ThreeWaySingleTile = ThreeWaySingle<BLOCK_THREADS, ITEMS_PER_THREAD, T, ThreeWaySingleItems>;

} // namespace select
} // namespace detail

/**
 * \brief Single-tile ThreeWayPartition: three_way_partition's result for
 * n items that fit one tile of the policy, in one block at the fewest items
 * per thread of detail::select::ThreeWaySingleItems that hold n, else at
 * ITEMS_PER_THREAD. With n == 0 it writes zeros to d_count[0] and
 * d_count[1] (the host launches _init for that). Traps for n > TILE.
 *
 * Launch: gridDim.x == 1, blockDim.x == BLOCK_THREADS,
 * 0 <= n <= BLOCK_THREADS * ITEMS_PER_THREAD.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename First, typename Second, typename InputIt,
          typename FirstIt, typename SecondIt, typename UnselectedIt, typename CountIt>
__device__ void three_way_partition_single(InputIt d_in, FirstIt d_first, SecondIt d_second, UnselectedIt d_unselected,
                                           CountIt d_count, long long n)
{
  using Single = detail::select::ThreeWaySingleTile<BLOCK_THREADS, ITEMS_PER_THREAD, T>;
  __shared__ typename Single::TempStorage temp;
  if (n <= 0)
  {
    if (threadIdx.x < 2)
    {
      d_count[threadIdx.x] = 0;
    }
    return;
  }
  Single::template run<First, Second>(temp, d_in, d_first, d_second, d_unselected, d_count, n);
}

} // namespace gocccl
