/*
 * gocccl/merge_sort.cuh: a stable device-wide merge sort with a user
 * comparator, keys only or key-value pairs, in place (the kernel side of
 * runtime.MergeSortKeys and runtime.MergeSortPairs). The structure is
 * cub::DeviceMergeSort's (dispatch_merge_sort.cuh, agent_merge_sort.cuh):
 *
 *   TILE = BLOCK_THREADS * ITEMS_PER_THREAD, num_tiles = ceil(n / TILE),
 *   num_passes = ceil(log2(num_tiles)).
 *
 *   <sym>_single     grid 1, n <= TILE: one block sorts all n keys (and
 *                    values) of d_keys_in into d_keys in the smallest tile
 *                    of BLOCK_THREADS x I keys that holds them, I from
 *                    detail::MergeSortSingleItems, else ITEMS_PER_THREAD:
 *                    cub::BlockMergeSort sorts I keys per thread and then
 *                    merges I per thread and round serially, valid keys or
 *                    not, so a small input sorts sooner in a small tile.
 *                    No scratch.
 *   More than one tile takes the block sort and num_passes merge passes:
 *   <sym>_block      grid num_tiles: block b loads tile b of d_keys_in (and
 *                    d_values_in: the keys themselves, or for the copy form
 *                    another buffer or an input iterator), sorts it with cub::BlockMergeSort (a stable
 *                    odd-even sort per thread, then merge-path merges in
 *                    shared memory) and stores it to d_keys, or to the
 *                    scratch copy when to_tmp != 0.
 *   per pass p = 0 .. num_passes-1, merged_tiles = 2 << p: runs of
 *   merged_tiles / 2 sorted tiles are merged pairwise into runs of
 *   merged_tiles tiles, reading from the scratch copy when from_tmp != 0
 *   (else from d_keys) and writing to the other buffer:
 *     <sym>_partition  grid ceil((num_tiles + 1) / BLOCK_THREADS): thread i
 *                      computes the merge-path split of output tile i (its
 *                      first key's position in the first run of its pair)
 *                      and writes d_partitions[i], for i in [0, num_tiles].
 *     <sym>_merge      grid num_tiles: block b reads the (at most TILE) keys
 *                      of both runs that make up output tile b into shared
 *                      memory, each thread finds its own split by merge path
 *                      and merges ITEMS_PER_THREAD keys serially, and the
 *                      block stores the tile (values follow through the
 *                      merge's source indices). With d_partitions ==
 *                      nullptr the block finds its tile's two splits itself
 *                      (warps 0 and 1, one detail::warp_merge_path of
 *                      merge.cuh each), and the pass launches no partition:
 *                      the host does so while num_tiles is at most four
 *                      waves of resident merge blocks (runtime/merge.go's
 *                      mergeSearches). Both
 *                      ways give the same splits, so the same output.
 *   The host starts with to_tmp = num_passes odd, flips the buffers after
 *   every pass, and so ends in d_keys / d_values.
 *
 * Scratch: d_tmp_keys (n keys), d_tmp_values (n values) and, when the
 * partition kernel runs, d_partitions (num_tiles + 1 long longs); none for
 * the single-tile sort.
 *
 * Ties: merge path takes from the first run unless the second run's key is
 * strictly less, and BlockMergeSort is stable, so equivalent keys keep their
 * input order. Less must be a strict weak order; with any other relation
 * (e.g. x < y on floats with NaNs) the result depends on the tile size.
 *
 * Partial tiles: only the last tile can be partial; it is handled with
 * valid-item counts, as CUB does: no key is assumed to be a maximum. The
 * block sort pads a thread's out-of-range slots with the greatest of its own
 * valid keys (cub::BlockMergeSort's oob_default protocol, with each thread's
 * first key), so padding sorts after the thread's valid keys and never
 * enters the merges, which are bounded by valid_items. No key outside
 * [0, n) is read or written, and the comparator only sees valid keys.
 *
 * All offsets are 64-bit (long long); per-tile counts are int.
 *
 * cub::BlockMergeSort<KeyT, BLOCK_DIM_X, ITEMS_PER_THREAD, ValueT> and its
 * StableSort(keys, [items,] less, valid_items, oob_default) have the same
 * template parameters and signatures in CUB 1.17 and CCCL 3.x (later
 * versions add defaulted parameters after these); merge path and the serial
 * merge of the merge kernel are this file's own (CUB's MergePath and
 * SerialMerge changed signature in CCCL 2.x).
 *
 * Requirements on K, V: trivially copyable and default constructible.
 * Requirements on Less: default constructible functor with
 * `bool operator()(K, K) const`, a strict weak order.
 * Kernels must be launched with blockDim = (BLOCK_THREADS, 1, 1).
 */
#pragma once

#include <gocccl/config.cuh>
#include <gocccl/merge.cuh>

#include <cub/block/block_load.cuh>
#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_store.cuh>
#include <cub/util_type.cuh>

#include <utility>

namespace gocccl {
namespace detail {

/// Returns how many of the first diag keys of merge(keys1, keys2) come from
/// keys1: the merge-path split of diagonal diag. Ties go to keys1 (stable).
template <typename OffsetT, typename K, typename Less>
GOCCCL_DEVICE OffsetT merge_path(const K* keys1, const K* keys2, OffsetT count1, OffsetT count2,
                                 OffsetT diag, Less less)
{
  OffsetT lo = diag < count2 ? 0 : diag - count2;
  OffsetT hi = diag < count1 ? diag : count1;
  while (lo < hi)
  {
    const OffsetT mid = lo + (hi - lo) / 2;
    if (less(keys2[diag - 1 - mid], keys1[mid]))
    {
      hi = mid;
    }
    else
    {
      lo = mid + 1;
    }
  }
  return lo;
}

/// Merges ITEMS keys from shared[beg1:end1] and shared[beg2:end2] into out,
/// recording each key's index in shared. Slots past both ends get unspecified
/// keys and indices; the comparator sees only keys inside the ranges. Reads
/// shared up to index end2 + ITEMS (the array has TILE + 1 entries).
template <int ITEMS, typename K, typename Less>
GOCCCL_DEVICE void serial_merge(const K* shared, int beg1, int end1, int beg2, int end2,
                                K (&out)[ITEMS], int (&indices)[ITEMS], Less less)
{
  K key1 = shared[beg1];
  K key2 = shared[beg2];
#pragma unroll
  for (int i = 0; i < ITEMS; ++i)
  {
    const bool take2 = beg2 < end2 && (beg1 >= end1 || less(key2, key1));
    out[i]     = take2 ? key2 : key1;
    indices[i] = take2 ? beg2 : beg1;
    if (take2)
    {
      key2 = shared[++beg2];
    }
    else
    {
      key1 = shared[++beg1];
    }
  }
}

/// The bounds of the two sorted runs that output tile `tile` merges in a
/// pass that builds runs of merged_tiles tiles.
struct MergeRuns
{
  long long start; // first key of the pair of runs
  long long size;  // keys per input run
  long long mask;  // merged_tiles - 1

  GOCCCL_DEVICE MergeRuns(long long tile, long long merged_tiles, int tile_items)
  {
    mask  = merged_tiles - 1;
    start = (tile & ~mask) * tile_items;
    size  = (merged_tiles / 2) * tile_items;
  }
};

/// The split of output tile i (i in [0, num_tiles]) in a pass that builds
/// runs of merged_tiles tiles: the position in keys of the first key that
/// tile i takes from the first run of its pair. WARP: found by the calling
/// warp's 32 lanes together (warp_merge_path; all must call it with the same
/// arguments), else by the calling thread alone. Both give the same split.
template <int TILE, bool WARP, typename K, typename Less>
GOCCCL_DEVICE long long merge_sort_split(const K* keys, long long n, long long i, long long merged_tiles,
                                         const Less& less)
{
  const MergeRuns runs(i, merged_tiles, TILE);
  const long long beg1 = min(n, runs.start);
  const long long end1 = min(n, runs.start + runs.size);
  const long long end2 = min(n, end1 + runs.size);
  const long long diag = min(end2 - beg1, (i & runs.mask) * TILE);
  if constexpr (WARP)
  {
    return beg1 + warp_merge_path(keys + beg1, end1 - beg1, keys + end1, end2 - end1, diag, less);
  }
  else
  {
    return beg1 + merge_path(keys + beg1, keys + end1, end1 - beg1, end2 - end1, diag, less);
  }
}

/// Writes d_partitions[i] = merge_sort_split(i) for output tile i, for
/// every i in [0, num_tiles], one thread each.
template <int TILE, typename K, typename Less>
GOCCCL_DEVICE void merge_sort_partition(const K* d_keys, void* d_tmp_keys, long long n,
                                        void* d_partitions, long long from_tmp, long long merged_tiles)
{
  const long long num_tiles = (n + TILE - 1) / TILE;
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i > num_tiles)
  {
    return;
  }
  const K* keys = from_tmp ? static_cast<const K*>(d_tmp_keys) : d_keys;
  static_cast<long long*>(d_partitions)[i] = merge_sort_split<TILE, false>(keys, n, i, merged_tiles, Less());
}

/// The block sort and the merge of one instance; V is cub::NullType for a
/// keys-only sort.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, typename Less>
struct MergeSortAgent
{
  static constexpr bool KEYS_ONLY = std::is_same<V, cub::NullType>::value;
  static constexpr int TILE       = BLOCK_THREADS * ITEMS_PER_THREAD;

  /// The value type loads and stores are instantiated with (K for keys only,
  /// so that no block primitive is instantiated over NullType).
  using VT = typename std::conditional<KEYS_ONLY, K, V>::type;

  using BlockMergeSortT = cub::BlockMergeSort<K, BLOCK_THREADS, ITEMS_PER_THREAD, V>;
  using LoadK  = cub::BlockLoad<K, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using LoadV  = cub::BlockLoad<VT, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using StoreK = cub::BlockStore<K, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using StoreV = cub::BlockStore<VT, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_STORE_WARP_TRANSPOSE>;

  static_assert(BLOCK_THREADS > 0 && BLOCK_THREADS % 32 == 0 && BLOCK_THREADS <= 1024,
                "gocccl::merge_sort: BLOCK_THREADS must be a multiple of 32 in [32, 1024]");
  static_assert(ITEMS_PER_THREAD > 0, "gocccl::merge_sort: ITEMS_PER_THREAD must be positive");
  static_assert(std::is_trivially_copyable<K>::value, "gocccl::merge_sort: K must be trivially copyable");
  static_assert(std::is_trivially_copyable<VT>::value, "gocccl::merge_sort: V must be trivially copyable");

  union BlockSortStorage
  {
    typename LoadK::TempStorage load_keys;
    typename LoadV::TempStorage load_values;
    typename BlockMergeSortT::TempStorage sort;
    typename StoreK::TempStorage store_keys;
    typename StoreV::TempStorage store_values;
  };

  union MergeStorage
  {
    typename StoreK::TempStorage store_keys;
    typename StoreV::TempStorage store_values;
    K keys[TILE + 1];
    VT values[TILE + 1];
  };

  /// Sorts tile blockIdx.x of keys_in (values_in) and stores it to d_keys
  /// (d_values) or to the scratch copy. keys_in may be d_keys itself, or an
  /// input iterator (iterator.cuh) read only here.
  template <bool FULL, typename KeyIt, typename ValueIt>
  static GOCCCL_DEVICE void block_sort_tile(BlockSortStorage& temp, KeyIt keys_in, ValueIt values_in, K* d_keys,
                                            VT* d_values, K* tmp_keys, VT* tmp_values, long long base, int valid,
                                            bool to_tmp)
  {
    Less less;
    VT values[ITEMS_PER_THREAD];
    if constexpr (!KEYS_ONLY)
    {
      if constexpr (FULL)
      {
        LoadV(temp.load_values).Load(values_in + base, values);
      }
      else
      {
        const VT fill = values_in[base];
        LoadV(temp.load_values).Load(values_in + base, values, valid, fill);
      }
      __syncthreads();
    }
    K keys[ITEMS_PER_THREAD];
    if constexpr (FULL)
    {
      LoadK(temp.load_keys).Load(keys_in + base, keys);
    }
    else
    {
      const K fill = keys_in[base];
      LoadK(temp.load_keys).Load(keys_in + base, keys, valid, fill);
    }
    __syncthreads();
    if constexpr (KEYS_ONLY)
    {
      if constexpr (FULL)
      {
        BlockMergeSortT(temp.sort).StableSort(keys, less);
      }
      else
      {
        BlockMergeSortT(temp.sort).StableSort(keys, less, valid, keys[0]);
      }
    }
    else
    {
      if constexpr (FULL)
      {
        BlockMergeSortT(temp.sort).StableSort(keys, values, less);
      }
      else
      {
        BlockMergeSortT(temp.sort).StableSort(keys, values, less, valid, keys[0]);
      }
    }
    __syncthreads();
    K* out_keys = to_tmp ? tmp_keys : d_keys;
    if constexpr (FULL)
    {
      StoreK(temp.store_keys).Store(out_keys + base, keys);
    }
    else
    {
      StoreK(temp.store_keys).Store(out_keys + base, keys, valid);
    }
    if constexpr (!KEYS_ONLY)
    {
      __syncthreads();
      VT* out_values = to_tmp ? tmp_values : d_values;
      if constexpr (FULL)
      {
        StoreV(temp.store_values).Store(out_values + base, values);
      }
      else
      {
        StoreV(temp.store_values).Store(out_values + base, values, valid);
      }
    }
  }

  template <typename KeyIt, typename ValueIt>
  static GOCCCL_DEVICE void block_sort(KeyIt keys_in, ValueIt values_in, K* d_keys, VT* d_values, void* d_tmp_keys,
                                       void* d_tmp_values, long long n, long long to_tmp)
  {
    __shared__ BlockSortStorage temp;
    const long long num_tiles = (n + TILE - 1) / TILE;
    const long long tile      = blockIdx.x;
    if (tile >= num_tiles)
    {
      return;
    }
    const long long base = tile * TILE;
    K* tmp_keys          = static_cast<K*>(d_tmp_keys);
    VT* tmp_values       = static_cast<VT*>(d_tmp_values);
    if (tile < num_tiles - 1 || n - base == TILE)
    {
      block_sort_tile<true>(temp, keys_in, values_in, d_keys, d_values, tmp_keys, tmp_values, base, TILE,
                            to_tmp != 0);
    }
    else
    {
      block_sort_tile<false>(temp, keys_in, values_in, d_keys, d_values, tmp_keys, tmp_values, base,
                             static_cast<int>(n - base), to_tmp != 0);
    }
  }

  /// Sorts the n <= TILE keys (values) of keys_in (values_in) into d_keys
  /// (d_values): the whole input as one tile.
  template <typename KeyIt, typename ValueIt>
  static GOCCCL_DEVICE void single_tile(BlockSortStorage& temp, KeyIt keys_in, ValueIt values_in, K* d_keys,
                                        VT* d_values, long long n)
  {
    if (n == TILE)
    {
      block_sort_tile<true>(temp, keys_in, values_in, d_keys, d_values, nullptr, nullptr, 0, TILE, false);
    }
    else
    {
      block_sort_tile<false>(temp, keys_in, values_in, d_keys, d_values, nullptr, nullptr, 0, static_cast<int>(n),
                             false);
    }
  }

  /// Reads count1 items of in1 then count2 of in2, striped: item i of
  /// this thread is element i * BLOCK_THREADS + tid of the concatenation.
  template <bool FULL, typename T>
  static GOCCCL_DEVICE void gather(T (&out)[ITEMS_PER_THREAD], const T* in1, const T* in2, int count1, int count2)
  {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int idx = i * BLOCK_THREADS + static_cast<int>(threadIdx.x);
      if (FULL || idx < count1 + count2)
      {
        out[i] = idx < count1 ? in1[idx] : in2[idx - count1];
      }
    }
  }

  /// Writes striped registers back to their positions in shared.
  template <bool FULL, typename T>
  static GOCCCL_DEVICE void to_shared(T* shared, const T (&in)[ITEMS_PER_THREAD], int count)
  {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int idx = i * BLOCK_THREADS + static_cast<int>(threadIdx.x);
      if (FULL || idx < count)
      {
        shared[idx] = in[i];
      }
    }
  }

  /// Merges the keys (values) of output tile `tile` from the input buffers
  /// into the output buffers; split and next_split are merge_sort_split of
  /// tile and tile + 1 (the latter unused for the last tile of a pair).
  template <bool FULL>
  static GOCCCL_DEVICE void merge_tile(MergeStorage& temp, const K* in_keys, const VT* in_values, K* out_keys,
                                       VT* out_values, long long n, long long split, long long next_split,
                                       long long tile, long long merged_tiles)
  {
    Less less;
    const MergeRuns runs(tile, merged_tiles, TILE);
    const long long beg1 = split;
    long long end1       = next_split;
    const long long diag = tile * TILE - runs.start; // this tile's first output, relative to the pair
    const long long beg2 = min(n, 2 * runs.start + runs.size + diag - beg1);
    long long end2       = min(n, 2 * runs.start + runs.size + diag + TILE - end1);
    if ((tile & runs.mask) == runs.mask)
    {
      // The last tile of its pair: the next split belongs to the next pair.
      end1 = min(n, runs.start + runs.size);
      end2 = min(n, runs.start + 2 * runs.size);
    }
    const int count1 = static_cast<int>(end1 - beg1);
    const int count2 = static_cast<int>(end2 - beg2);
    const int count  = count1 + count2;

    K keys[ITEMS_PER_THREAD];
    gather<FULL>(keys, in_keys + beg1, in_keys + beg2, count1, count2);
    to_shared<FULL>(temp.keys, keys, count);
    VT values[ITEMS_PER_THREAD];
    if constexpr (!KEYS_ONLY)
    {
      gather<FULL>(values, in_values + beg1, in_values + beg2, count1, count2);
    }
    __syncthreads();

    const int tid         = static_cast<int>(threadIdx.x);
    const int local_diag  = min(count, ITEMS_PER_THREAD * tid);
    const int local_split = merge_path(temp.keys, temp.keys + count1, count1, count2, local_diag, less);
    int indices[ITEMS_PER_THREAD];
    serial_merge(temp.keys, local_split, count1, count1 + local_diag - local_split, count, keys, indices, less);
    __syncthreads();

    const long long base = tile * TILE;
    if constexpr (FULL)
    {
      StoreK(temp.store_keys).Store(out_keys + base, keys);
    }
    else
    {
      StoreK(temp.store_keys).Store(out_keys + base, keys, count);
    }
    if constexpr (!KEYS_ONLY)
    {
      __syncthreads();
      to_shared<FULL>(temp.values, values, count);
      __syncthreads();
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        values[i] = temp.values[FULL || ITEMS_PER_THREAD * tid + i < count ? indices[i] : 0];
      }
      __syncthreads();
      if constexpr (FULL)
      {
        StoreV(temp.store_values).Store(out_values + base, values);
      }
      else
      {
        StoreV(temp.store_values).Store(out_values + base, values, count);
      }
    }
  }

  static GOCCCL_DEVICE void merge(K* d_keys, VT* d_values, void* d_tmp_keys, void* d_tmp_values, long long n,
                                  void* d_partitions, long long from_tmp, long long merged_tiles)
  {
    __shared__ MergeStorage temp;
    // The self-searched splits, apart from temp: a thread may store its part
    // of the tile there before a slower one has read them.
    __shared__ long long searched[2];
    const long long num_tiles = (n + TILE - 1) / TILE;
    const long long tile      = blockIdx.x;
    if (tile >= num_tiles)
    {
      return;
    }
    K* tmp_keys    = static_cast<K*>(d_tmp_keys);
    VT* tmp_values = static_cast<VT*>(d_tmp_values);
    const K* in_keys   = from_tmp ? tmp_keys : d_keys;
    const VT* in_values = from_tmp ? tmp_values : d_values;
    K* out_keys        = from_tmp ? d_keys : tmp_keys;
    VT* out_values     = from_tmp ? d_values : tmp_values;
    long long split      = 0;
    long long next_split = 0;
    if (d_partitions != nullptr)
    {
      const long long* partitions = static_cast<const long long*>(d_partitions);
      split                       = partitions[tile];
      next_split                  = partitions[tile + 1];
    }
    else
    {
      // Warp 0 searches this tile's split and warp 1 the next tile's, which
      // the last tile of a pair does not use.
      Less less;
      const bool last_of_pair = (tile & (merged_tiles - 1)) == merged_tiles - 1;
      block_search_pair<BLOCK_THREADS>(
        searched,
        [&](int i) {
          return i == 1 && last_of_pair
                 ? 0
                 : merge_sort_split<TILE, true>(in_keys, n, tile + i, merged_tiles, less);
        },
        split, next_split);
    }
    if (tile < num_tiles - 1 || n - tile * TILE == TILE)
    {
      merge_tile<true>(temp, in_keys, in_values, out_keys, out_values, n, split, next_split, tile, merged_tiles);
    }
    else
    {
      merge_tile<false>(temp, in_keys, in_values, out_keys, out_values, n, split, next_split, tile, merged_tiles);
    }
  }
};

/// The items per thread of the single-tile sort's smaller tiles, fewest
/// first: n keys take the first tile of BLOCK_THREADS x items that holds
/// them, else the policy's BLOCK_THREADS x ITEMS_PER_THREAD; items at or
/// above ITEMS_PER_THREAD are skipped. The block size is the policy's
/// whatever n (the launch does not depend on it), so each halving of the
/// items saves a thread's serial merge steps in every round; doubling
/// tiles hold 2^k keys whole (no partial-tile padding) at 256 threads.
/// bench/cub/tune/merge_small_tune.cu times these shapes (gocccl-256xI)
/// and the kernel (gocccl-single) beside cub::DeviceMergeSort.
using MergeSortSingleItems = std::integer_sequence<int, 2, 4, 8>;

/// The single-tile sort over the rungs Items (an std::integer_sequence of
/// items per thread), then the policy's tile.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, typename Less, typename Items>
struct MergeSortSingle;

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, typename Less>
struct MergeSortSingle<BLOCK_THREADS, ITEMS_PER_THREAD, K, V, Less, std::integer_sequence<int>>
{
  using Agent       = MergeSortAgent<BLOCK_THREADS, ITEMS_PER_THREAD, K, V, Less>;
  using TempStorage = typename Agent::BlockSortStorage;

  template <typename KeyIt, typename ValueIt>
  static GOCCCL_DEVICE void sort(TempStorage& temp, KeyIt keys_in, ValueIt values_in, K* d_keys,
                                 typename Agent::VT* d_values, long long n)
  {
    Agent::single_tile(temp, keys_in, values_in, d_keys, d_values, n);
  }
};

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, typename Less, int ITEMS, int... MORE>
struct MergeSortSingle<BLOCK_THREADS, ITEMS_PER_THREAD, K, V, Less, std::integer_sequence<int, ITEMS, MORE...>>
{
  static constexpr bool USED = ITEMS < ITEMS_PER_THREAD;
  using Agent = MergeSortAgent<BLOCK_THREADS, USED ? ITEMS : ITEMS_PER_THREAD, K, V, Less>;
  using Next  = MergeSortSingle<BLOCK_THREADS, ITEMS_PER_THREAD, K, V, Less, std::integer_sequence<int, MORE...>>;

  union TempStorage
  {
    typename Agent::BlockSortStorage here;
    typename Next::TempStorage next;
  };

  template <typename KeyIt, typename ValueIt>
  static GOCCCL_DEVICE void sort(TempStorage& temp, KeyIt keys_in, ValueIt values_in, K* d_keys,
                                 typename Agent::VT* d_values, long long n)
  {
    if constexpr (USED)
    {
      if (n <= Agent::TILE)
      {
        Agent::single_tile(temp.here, keys_in, values_in, d_keys, d_values, n);
        return;
      }
    }
    Next::sort(temp.next, keys_in, values_in, d_keys, d_values, n);
  }
};

/// The single-tile sort of a merge sort instance.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, typename Less>
using MergeSortSingleTile = MergeSortSingle<BLOCK_THREADS, ITEMS_PER_THREAD, K, V, Less, MergeSortSingleItems>;

} // namespace detail

/**
 * \brief Block sort of a keys-only merge sort: sorts tile blockIdx.x of
 * d_keys_in[0:n] and stores it to d_keys (to_tmp == 0) or d_tmp_keys.
 * d_keys_in is d_keys for the in-place sort, or another buffer or an input
 * iterator (iterator.cuh) for the copy form, as
 * cub::DeviceMergeSort::SortKeysCopy: only this kernel reads it.
 * Launch: gridDim.x == ceil(n / (BLOCK_THREADS * ITEMS_PER_THREAD)).
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename Less, typename KeyIt>
__device__ void merge_sort_keys_block(KeyIt d_keys_in, K* d_keys, void* d_tmp_keys, long long n, long long to_tmp)
{
  using Agent = detail::MergeSortAgent<BLOCK_THREADS, ITEMS_PER_THREAD, K, cub::NullType, Less>;
  Agent::block_sort(d_keys_in, static_cast<const K*>(nullptr), d_keys, nullptr, d_tmp_keys, nullptr, n, to_tmp);
}

/// \brief merge_sort_keys_block sorting d_keys in place.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename Less>
__device__ void merge_sort_keys_block(K* d_keys, void* d_tmp_keys, long long n, long long to_tmp)
{
  merge_sort_keys_block<BLOCK_THREADS, ITEMS_PER_THREAD, K, Less>(static_cast<const K*>(d_keys), d_keys, d_tmp_keys,
                                                                   n, to_tmp);
}

/**
 * \brief Single-tile sort of a keys-only merge sort: sorts all n keys of
 * d_keys_in into d_keys in one block, at the fewest items per thread of
 * detail::MergeSortSingleItems that hold n, else at ITEMS_PER_THREAD.
 * d_keys_in is d_keys for the in-place sort (every key is read before any
 * is written), or another buffer or an input iterator for the copy form.
 * Launch: gridDim.x == 1, 1 <= n <= BLOCK_THREADS * ITEMS_PER_THREAD.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename Less, typename KeyIt>
__device__ void merge_sort_keys_single(KeyIt d_keys_in, K* d_keys, long long n)
{
  using Single = detail::MergeSortSingleTile<BLOCK_THREADS, ITEMS_PER_THREAD, K, cub::NullType, Less>;
  __shared__ typename Single::TempStorage temp;
  Single::sort(temp, d_keys_in, static_cast<const K*>(nullptr), d_keys, nullptr, n);
}

/**
 * \brief Merge-path splits of one merge pass: d_partitions[i] for every
 * output tile i in [0, num_tiles], reading the keys of d_tmp_keys when
 * from_tmp != 0, else of d_keys. merged_tiles is 2 << pass.
 * Launch: gridDim.x * BLOCK_THREADS >= num_tiles + 1.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename Less>
__device__ void merge_sort_keys_partition(const K* d_keys, void* d_tmp_keys, long long n, void* d_partitions,
                                          long long from_tmp, long long merged_tiles)
{
  detail::merge_sort_partition<BLOCK_THREADS * ITEMS_PER_THREAD, K, Less>(d_keys, d_tmp_keys, n, d_partitions,
                                                                          from_tmp, merged_tiles);
}

/**
 * \brief One merge pass: merges output tile blockIdx.x from d_tmp_keys into
 * d_keys (from_tmp != 0) or from d_keys into d_tmp_keys, with the splits of
 * the partition kernel of the same pass, or, when d_partitions is null, with
 * splits the block searches itself (no partition launch).
 * Launch: gridDim.x == num_tiles.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename Less>
__device__ void merge_sort_keys_merge(K* d_keys, void* d_tmp_keys, long long n, void* d_partitions,
                                      long long from_tmp, long long merged_tiles)
{
  using Agent = detail::MergeSortAgent<BLOCK_THREADS, ITEMS_PER_THREAD, K, cub::NullType, Less>;
  Agent::merge(d_keys, nullptr, d_tmp_keys, nullptr, n, d_partitions, from_tmp, merged_tiles);
}

/// \brief merge_sort_keys_block moving the values of d_values_in (d_values
/// itself, or another buffer or an input iterator) to d_values (or
/// d_tmp_values) along.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, typename Less, typename KeyIt,
          typename ValueIt>
__device__ void merge_sort_pairs_block(KeyIt d_keys_in, ValueIt d_values_in, K* d_keys, V* d_values,
                                       void* d_tmp_keys, void* d_tmp_values, long long n, long long to_tmp)
{
  using Agent = detail::MergeSortAgent<BLOCK_THREADS, ITEMS_PER_THREAD, K, V, Less>;
  Agent::block_sort(d_keys_in, d_values_in, d_keys, d_values, d_tmp_keys, d_tmp_values, n, to_tmp);
}

/// \brief merge_sort_pairs_block sorting d_keys and d_values in place.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, typename Less>
__device__ void merge_sort_pairs_block(K* d_keys, V* d_values, void* d_tmp_keys, void* d_tmp_values, long long n,
                                       long long to_tmp)
{
  merge_sort_pairs_block<BLOCK_THREADS, ITEMS_PER_THREAD, K, V, Less>(
    static_cast<const K*>(d_keys), static_cast<const V*>(d_values), d_keys, d_values, d_tmp_keys, d_tmp_values, n,
    to_tmp);
}

/// \brief merge_sort_keys_single moving the values of d_values_in (d_values
/// itself, or another buffer or an input iterator) to d_values along.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, typename Less, typename KeyIt,
          typename ValueIt>
__device__ void merge_sort_pairs_single(KeyIt d_keys_in, ValueIt d_values_in, K* d_keys, V* d_values, long long n)
{
  using Single = detail::MergeSortSingleTile<BLOCK_THREADS, ITEMS_PER_THREAD, K, V, Less>;
  __shared__ typename Single::TempStorage temp;
  Single::sort(temp, d_keys_in, d_values_in, d_keys, d_values, n);
}

/// \brief merge_sort_keys_partition of a pairs sort (values are not read).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, typename Less>
__device__ void merge_sort_pairs_partition(const K* d_keys, void* d_tmp_keys, long long n, void* d_partitions,
                                           long long from_tmp, long long merged_tiles)
{
  detail::merge_sort_partition<BLOCK_THREADS * ITEMS_PER_THREAD, K, Less>(d_keys, d_tmp_keys, n, d_partitions,
                                                                          from_tmp, merged_tiles);
}

/// \brief merge_sort_keys_merge moving d_values (and d_tmp_values) along;
/// d_partitions may be null as there.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, typename Less>
__device__ void merge_sort_pairs_merge(K* d_keys, V* d_values, void* d_tmp_keys, void* d_tmp_values, long long n,
                                       void* d_partitions, long long from_tmp, long long merged_tiles)
{
  using Agent = detail::MergeSortAgent<BLOCK_THREADS, ITEMS_PER_THREAD, K, V, Less>;
  Agent::merge(d_keys, d_values, d_tmp_keys, d_tmp_values, n, d_partitions, from_tmp, merged_tiles);
}

} // namespace gocccl
