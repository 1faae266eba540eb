/*
 * gocccl/reduce_by_key.cuh: single-pass reduce-by-key with decoupled
 * look-back (the kernel side of runtime.ReduceByKey), after CUB's
 * AgentReduceByKey: for every run of consecutive equal keys, the run's first
 * key goes to d_unique[r] and the reduction of its values to d_aggs[r]; the
 * number of runs to d_num_runs[0].
 *
 *   <sym>_init   reduce_by_key_init  readies the tile states in d_state: with
 *                epoch tile states (epoch_tile_state.cuh) the whole region,
 *                once per region, any grid; with CUB's, before every call,
 *                grid ceil((num_tiles + 32) / BLOCK_THREADS)
 *   <sym>_sweep  reduce_by_key       grid num_tiles (1 when n == 0)
 *
 * Each tile loads its keys and values (blocked, through BlockLoad's warp
 * transpose), flags run heads with BlockDiscontinuity (the tile's
 * predecessor key read from global memory), and exclusive-scans the pairs
 * (head flag, value) with the reduce-by-segment operator
 *   (a, b) -> (a.key + b.key, b.key ? b.value : op(a.value, b.value))
 * across tiles through the tile state + cub::TilePrefixCallbackOp. At a
 * head item at global index g > 0 the exclusive prefix holds the number of
 * runs before it (its run index r) and the previous run's aggregate
 * (d_aggs[r - 1]); the last tile's last item writes the last run's aggregate
 * and the run count. A tile that heads more runs than it has threads writes
 * them through shared memory, coalesced (CUB's two-phase scatter). Items past n carry no head flag and are never written.
 *
 * The look-back values are cub::KeyValuePair<long long, V> (16 bytes for
 * any V of up to 8 bytes). Where they fit an EpochTileState (at most 16
 * bytes: epoch_tile_state_supported) the tile states are epoch-tagged and
 * need no init per call; wider pairs keep cub::ReduceByKeyScanTileState<V,
 * long long> (the generic three-array state for such V). Host dispatch (Go
 * runtime, runtime/reduce_by_key.go): for a single tile (n <= TILE, n == 0
 * included) only _sweep, on one block, with d_state == nullptr (a single
 * tile publishes nothing and looks back at nothing). Otherwise, with epoch
 * states, the stream's epoch region (runtime/epochs.go) of at least
 * EpochTileState<RunPair<V>>::AllocationSize(num_tiles) bytes, _init over
 * it only when it is new, grown or out of epochs, then _sweep with the
 * call's epoch: one launch per call in the steady state. With CUB's states,
 * _init then _sweep on state_bytes of at least its
 * AllocationSize(num_tiles) (the host passes a bound). _init traps when
 * state_bytes is too small.
 *
 * Requirements: K and V trivially copyable; EqualityOp default-constructible,
 * `bool operator()(K, K) const`; ReductionOp default-constructible,
 * `V operator()(V, V) const`, associative (need not be commutative: values
 * are combined in order). A float ReductionOp with a twin (gpu_nan.cuh)
 * scans each tile with the twin first, and again with ReductionOp when a
 * prefix or the aggregate is a NaN; tiles publish only ReductionOp's values.
 * Launch with blockDim.x == BLOCK_THREADS.
 */
#pragma once

#include <gocccl/config.cuh>
#include <gocccl/epoch_tile_state.cuh>
#include <gocccl/gpu_nan.cuh>
#include <gocccl/look_back.cuh>
#include <gocccl/transform_reduce.cuh>

#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/util_type.cuh>

#include <type_traits>

namespace gocccl {
namespace detail {

/// (head flag count, value) pairs of a reduce-by-key scan.
template <typename V>
using RunPair = cub::KeyValuePair<long long, V>;

/// Whether the look-back over RunPair<V> uses epoch tile states
/// (epoch_tile_state.cuh): pairs of at most 16 bytes, V of up to 8 bytes.
template <typename V>
constexpr bool run_epoch_states = epoch_tile_state_supported<RunPair<V>>;

/// The tile state of the look-back: epoch-tagged states of RunPairs where
/// they fit (run_epoch_states; the host runs no init per call), else CUB's
/// reduce-by-key tile state, as cub::DeviceReduceByKey uses it (for such
/// wide V the generic three-array state).
template <typename V>
using RunTileState = typename std::conditional<run_epoch_states<V>, EpochTileState<RunPair<V>>,
                                               cub::ReduceByKeyScanTileState<V, long long>>::type;

/// The reduce-by-segment operator over RunPairs.
template <typename V, typename ReductionOp>
struct RunScanOp
{
  __device__ __forceinline__ RunPair<V> operator()(const RunPair<V>& a, const RunPair<V>& b) const
  {
    RunPair<V> r;
    r.key = a.key + b.key;
    r.value = b.key ? b.value : ReductionOp()(a.value, b.value);
    return r;
  }
};

/// Shared memory for a tile's run heads in a two-phase scatter: the key and
/// the previous run's aggregate of each, by the run's index in the tile.
template <typename K, typename V, int TILE>
struct RunStaging
{
  alignas(K) unsigned char key_bytes[sizeof(K) * TILE];
  alignas(V) unsigned char agg_bytes[sizeof(V) * TILE];
  GOCCCL_DEVICE K* keys() { return reinterpret_cast<K*>(key_bytes); }
  GOCCCL_DEVICE V* aggs() { return reinterpret_cast<V*>(agg_bytes); }
};

/// A discontinuity between neighbours: their keys differ.
template <typename EqualityOp>
struct KeyInequality
{
  template <typename K>
  __device__ __forceinline__ bool operator()(const K& a, const K& b) const
  {
    return !EqualityOp()(a, b);
  }
};

/// RunRescan holds a tile's (head flag, value) pairs in shared memory for a
/// second scan with ReductionOp (a float operator's twin gave a NaN: see
/// gpu_nan.cuh), and then that scan's results: each value's exclusive
/// prefix, each flag's count of the tile's heads before it. put and take
/// copy the items with constant indices; the scan between (rescan_tile)
/// runs rolled loops over shared memory around a block scan of one pair a
/// thread, so that its code, never executed where no NaN occurs, holds one
/// inlined operator per loop instead of one per item and step, and weighs
/// nothing on the first scan's schedule. It folds as CUB's BlockScan does
/// (each thread's items in order, then the threads'), and every thread
/// reads and writes only its own items' slots.
template <typename V, typename ReductionOp, int BLOCK_THREADS, int ITEMS_PER_THREAD>
struct RunRescan
{
  using Pair   = RunPair<V>;
  using ScanOp = RunScanOp<V, ReductionOp>;
  using Scan   = cub::BlockScan<Pair, BLOCK_THREADS, cub::BLOCK_SCAN_WARP_SCANS>;
  static constexpr int ITEMS = ITEMS_PER_THREAD;
  static constexpr int TILE  = BLOCK_THREADS * ITEMS_PER_THREAD;

  alignas(V) unsigned char value_bytes[sizeof(V) * TILE];
  int counts[TILE];
  typename Scan::TempStorage scan;

  GOCCCL_DEVICE V* values() { return reinterpret_cast<V*>(value_bytes); }

  GOCCCL_DEVICE Pair get(int local)
  {
    Pair p;
    p.key   = counts[local];
    p.value = values()[local];
    return p;
  }

  GOCCCL_DEVICE void set(int local, const Pair& p)
  {
    counts[local]   = static_cast<int>(p.key);
    values()[local] = p.value;
  }

  /// put stores the thread's items (flags 0 or 1).
  GOCCCL_DEVICE void put(const Pair (&items)[ITEMS_PER_THREAD])
  {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      set(threadIdx.x * ITEMS_PER_THREAD + i, items[i]);
    }
  }

  /// put_from stores the thread's items read again from d_values (slots
  /// past valid take the tile's first value), flags from bits.
  template <typename ValueIt, typename Bits>
  GOCCCL_DEVICE void put_from(ValueIt d_values, long long base, int valid, const Bits& bits)
  {
    const int first = threadIdx.x * ITEMS_PER_THREAD;
#pragma unroll 1
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int local  = first + i;
      counts[local]    = bits.get(i);
      values()[local]  = read_item(d_values, base + (local < valid ? local : 0));
    }
  }

  /// take_local loads the thread's exclusive prefixes with the counts of
  /// the tile's own heads before them (LocalPair).
  template <typename Local>
  GOCCCL_DEVICE void take_local(Local (&prefix)[ITEMS_PER_THREAD])
  {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int local = threadIdx.x * ITEMS_PER_THREAD + i;
      prefix[i].key   = counts[local];
      prefix[i].value = values()[local];
    }
  }

  /// take loads the thread's exclusive prefixes; runs_before is the count of
  /// the tile's exclusive prefix.
  GOCCCL_DEVICE void take(Pair (&prefix)[ITEMS_PER_THREAD], long long runs_before)
  {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      prefix[i] = get(threadIdx.x * ITEMS_PER_THREAD + i);
      prefix[i].key += runs_before;
    }
  }

  /// thread_sum folds the thread's items in order.
  GOCCCL_DEVICE Pair thread_sum()
  {
    const int first = threadIdx.x * ITEMS_PER_THREAD;
    Pair sum        = get(first);
#pragma unroll 1
    for (int i = 1; i < ITEMS_PER_THREAD; ++i)
    {
      sum = ScanOp()(sum, get(first + i));
    }
    return sum;
  }

  /// thread_scan replaces the thread's items by their exclusive prefixes,
  /// the first being running (from item 1 on when skip_first: tile 0's
  /// thread 0, whose first prefix is undefined and never read).
  GOCCCL_DEVICE void thread_scan(Pair running, bool skip_first)
  {
    const int first = threadIdx.x * ITEMS_PER_THREAD;
    int i           = 0;
    if (skip_first)
    {
      running = get(first);
      set(first, Pair{0, running.value});
      i = 1;
    }
#pragma unroll 1
    for (; i < ITEMS_PER_THREAD; ++i)
    {
      const Pair item = get(first + i);
      set(first + i, running);
      running = ScanOp()(running, item);
    }
  }
};

/// The count of the block prefix a second scan's callback gave.
template <typename S>
GOCCCL_DEVICE long long prefix_count(KnownPrefix<S>& known)
{
  return known.prefix.key;
}

template <typename PrefixOp>
GOCCCL_DEVICE long long prefix_count(PrefixOp& look_back)
{
  return look_back.GetExclusivePrefix().key; // after the scan: its barrier
}

/// rescan_tile scans the pairs in rescan again with ReductionOp, the tile's
/// prefix from prefix_op (TwinLookBack's with_op() or known()), and leaves
/// the results there for take, their counts from the tile's start.
template <typename Rescan, typename PrefixOp>
GOCCCL_DEVICE void rescan_tile(Rescan& rescan, PrefixOp prefix_op)
{
  typename Rescan::Pair running;
  typename Rescan::Scan(rescan.scan).ExclusiveScan(rescan.thread_sum(), running, typename Rescan::ScanOp(), prefix_op);
  running.key -= prefix_count(prefix_op);
  rescan.thread_scan(running, false);
}

/// rescan_first_tile is rescan_tile for tile 0, which has no prefix; it
/// returns the tile's aggregate.
template <typename Rescan>
GOCCCL_DEVICE typename Rescan::Pair rescan_first_tile(Rescan& rescan)
{
  typename Rescan::Pair running, aggregate;
  typename Rescan::Scan(rescan.scan).ExclusiveScan(rescan.thread_sum(), running, typename Rescan::ScanOp(), aggregate);
  rescan.thread_scan(running, threadIdx.x == 0);
  return aggregate;
}

/// (count of the tile's own heads before, value) pairs: the tile's own
/// scan; an int count where RunPair holds a 64-bit one, 2 registers a pair
/// for 4-byte V instead of 4.
template <typename V>
using LocalPair = cub::KeyValuePair<int, V>;

/// rbk_keys_again: whether the sweep reads a head's key again for its write
/// instead of keeping the tile's keys live through the scan. On an H100 it
/// ran 8-byte values 0.95-0.97x faster at 2^28 and 4-byte ones up to 1.14x
/// slower (bench/cub/tune/bykey_ab_h100_2026-12-07.txt).
template <typename V>
constexpr bool rbk_keys_again = sizeof(V) >= 8;

/// RunScanOp over LocalPairs: the same value for the same operands.
template <typename V, typename ReductionOp>
struct LocalScanOp
{
  __device__ __forceinline__ LocalPair<V> operator()(const LocalPair<V>& a, const LocalPair<V>& b) const
  {
    LocalPair<V> r;
    r.key   = a.key + b.key;
    r.value = b.key ? b.value : ReductionOp()(a.value, b.value);
    return r;
  }
};

/// LocalCounts adapts a look-back callback over RunPairs (TilePrefix,
/// TwinLookBack's first() or with_op()) to a scan of LocalPairs: it looks
/// back with the tile's aggregate (its head count and value) and seeds the
/// tile with the prefix's value and a count of 0, so every exclusive
/// result counts the tile's own heads only (runs_before, the prefix's
/// count, is added where a run index is written). RunScanOp's value never
/// depends on the left operand's count, so the values equal those of a
/// RunPair scan.
template <typename V, typename Callback>
struct LocalCounts
{
  Callback& inner;

  GOCCCL_DEVICE LocalPair<V> operator()(const LocalPair<V>& aggregate)
  {
    RunPair<V> a;
    a.key                 = aggregate.key;
    a.value               = aggregate.value;
    const RunPair<V> seen = inner(a);
    LocalPair<V> seed;
    seed.key   = 0;
    seed.value = seen.value;
    return seed;
  }
};

/// RunHeadBits keeps a thread's head flags as bits.
template <int ITEMS_PER_THREAD>
struct RunHeadBits
{
  unsigned words[(ITEMS_PER_THREAD + 31) / 32] = {};
  GOCCCL_DEVICE void set(int i, bool head) { words[i / 32] |= unsigned(head) << (i % 32); }
  GOCCCL_DEVICE int get(int i) const
  {
    if constexpr (ITEMS_PER_THREAD <= 32)
    {
      return (words[0] >> i) & 1u;
    }
    else
    {
      return (words[i / 32] >> (i % 32)) & 1u;
    }
  }
};

} // namespace detail

/**
 * \brief Kernel 1 of a multi-tile reduce-by-key: readies the tile states in
 * d_state. With epoch tile states (detail::run_epoch_states<V>) it
 * initializes the whole region (epoch_tile_state_init: the host launches it
 * once per region, not per call) and ignores num_tiles beyond checking the
 * size; otherwise it initializes the num_tiles CUB tile states, before
 * every multi-tile sweep.
 *
 * \param d_state      tile states, state_bytes bytes of device memory (16-byte aligned)
 * \param state_bytes  at least the states' AllocationSize(num_tiles); traps otherwise
 * \param num_tiles    tiles of the sweep, >= 1
 *
 * Launch: any grid for epoch states (grid-stride over the region's
 * state_bytes / 8 words); gridDim.x == ceil((num_tiles + 32) /
 * BLOCK_THREADS) otherwise.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, typename EqualityOp, typename ReductionOp>
__device__ void reduce_by_key_init(void* d_state, long long state_bytes, long long num_tiles)
{
  using TileState = detail::RunTileState<V>;
  if constexpr (detail::run_epoch_states<V>)
  {
    init_epoch_tile_states<TileState>(d_state, state_bytes, num_tiles);
  }
  else
  {
    TileState state;
    if (state.Init(static_cast<int>(num_tiles), d_state, static_cast<size_t>(state_bytes)) != cudaSuccess)
    {
      __trap(); // the host's bound on AllocationSize is wrong: a bug, never bad input
    }
    state.InitializeStatus(static_cast<int>(num_tiles));
  }
}

/**
 * \brief One tile of a reduce-by-key per block; see the file comment.
 *
 * \param n            item count, n >= 0
 * \param d_state      tile states readied by reduce_by_key_init; unused (may be null) when n <= TILE
 * \param state_bytes  size of d_state
 * \param epoch        with epoch tile states, this call's epoch (1 .. EPOCH_TILE_MAX, distinct
 *                     since the region's init: epoch_tile_state.cuh's host protocol); ignored
 *                     otherwise
 * \param Delay        the look-back's waits (look_back.cuh), a tag; DefaultDelay when left out
 *
 * Launch: gridDim.x == max(1, ceil(n / TILE)); with more than one tile,
 * after reduce_by_key_init on the same stream (once per region for epoch
 * states, before every call otherwise).
 */
// Registers (issue 38, "rbk-regs"; bench/NOTES.md, seventh and fifteenth
// sessions): the tile's pairs are scanned in place as LocalPairs (int
// counts of the tile's own heads; runs_before added where a run index is
// written), the head flags kept as bits, the values read again only for
// the twin's rescan (RunRescan::put_from) and the last run's close; the
// last tile's slots past n hold its first value. The look-back values stay
// RunPairs. For values of 8 bytes or more the heads' keys are read again
// from d_keys for their writes rather than kept live through the scan
// (detail::rbk_keys_again). With these the sweep takes the policy's
// minimum of blocks an SM without spilling (reduceByKeyPolicy).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, typename EqualityOp, typename ReductionOp,
          typename KeyIt, typename ValueIt, typename Delay = DefaultDelay>
__device__ void reduce_by_key(KeyIt d_keys, ValueIt d_values, K* d_unique, V* d_aggs, int64_t* d_num_runs,
                              long long n, void* d_state, long long state_bytes, unsigned epoch, Delay = Delay())
{
  using Pair          = detail::RunPair<V>;
  using Local         = detail::LocalPair<V>;
  using TileState     = detail::RunTileState<V>;
  using ScanOp        = detail::RunScanOp<V, ReductionOp>;
  using LocalOp       = detail::LocalScanOp<V, ReductionOp>;
  using LoadKeys      = cub::BlockLoad<K, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using LoadValues    = cub::BlockLoad<V, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Discontinuity = cub::BlockDiscontinuity<K, BLOCK_THREADS>;
  using Scan          = cub::BlockScan<Local, BLOCK_THREADS, cub::BLOCK_SCAN_WARP_SCANS>;
  using Prefix        = detail::TilePrefix<Pair, ScanOp, TileState, Delay>;
  constexpr int TILE  = BLOCK_THREADS * ITEMS_PER_THREAD;
  constexpr bool TWIN = detail::GpuNan<ReductionOp, V>::value;
  using Twin          = typename detail::GpuNan<ReductionOp, V>::type;
  using FirstOp       = detail::RunScanOp<V, Twin>;
  using LocalFirstOp  = detail::LocalScanOp<V, Twin>;
  using TwinLookBack  = detail::TwinLookBack<Pair, ScanOp, FirstOp, TileState, Delay>;
  using Rescan        = detail::RunRescan<V, ReductionOp, BLOCK_THREADS, ITEMS_PER_THREAD>;
  using Bits          = detail::RunHeadBits<ITEMS_PER_THREAD>;

  __shared__ union
  {
    typename LoadKeys::TempStorage load_keys;
    typename LoadValues::TempStorage load_values;
    typename Discontinuity::TempStorage flags;
    struct
    {
      typename Scan::TempStorage scan;
      typename Prefix::TempStorage prefix;
      typename TwinLookBack::TempStorage twin;
      typename std::conditional<TWIN, Rescan, char>::type rescan;
    } scan;
    detail::RunStaging<K, V, TILE> staging;
  } temp;

  if (n <= 0)
  {
    if (blockIdx.x == 0 && threadIdx.x == 0)
    {
      d_num_runs[0] = 0;
    }
    return;
  }
  const long long num_tiles = (n + TILE - 1) / TILE;
  const int tile            = blockIdx.x;
  const long long base      = static_cast<long long>(tile) * TILE;
  const int valid           = static_cast<int>(n - base < TILE ? n - base : TILE);
  const bool last_tile      = tile == num_tiles - 1;

  TileState state;
  if (num_tiles > 1)
  {
    if constexpr (detail::run_epoch_states<V>)
    {
      (void) state_bytes;
      state.Init(d_state, epoch);
    }
    else
    {
      (void) epoch;
      state.Init(static_cast<int>(num_tiles), d_state, static_cast<size_t>(state_bytes));
    }
  }

  K keys[ITEMS_PER_THREAD];
  Local pairs[ITEMS_PER_THREAD];
  {
    V values[ITEMS_PER_THREAD];
    if (valid == TILE)
    {
      LoadKeys(temp.load_keys).Load(d_keys + base, keys);
      __syncthreads();
      LoadValues(temp.load_values).Load(d_values + base, values);
    }
    else
    {
      LoadKeys(temp.load_keys).Load(d_keys + base, keys, valid);
      __syncthreads();
      LoadValues(temp.load_values).Load(d_values + base, values, valid, V(detail::read_item(d_values, base)));
    }
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      pairs[i].value = values[i];
    }
  }
  __syncthreads();

  Bits bits;
  {
    int heads[ITEMS_PER_THREAD];
    if (tile == 0)
    {
      Discontinuity(temp.flags).FlagHeads(heads, keys, detail::KeyInequality<EqualityOp>());
    }
    else
    {
      const K predecessor = detail::read_item(d_keys, base - 1);
      Discontinuity(temp.flags).FlagHeads(heads, keys, detail::KeyInequality<EqualityOp>(), predecessor);
    }
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int local = threadIdx.x * ITEMS_PER_THREAD + i;
      const int head  = local < valid ? heads[i] : 0;
      pairs[i].key    = head;
      bits.set(i, head != 0);
    }
  }
  __syncthreads();

  long long runs_before = 0; // runs headed before this tile
  int tile_heads;            // runs headed in it
  // Thread 0's first exclusive prefix is undefined in tile 0 (never used).
  const auto first_nan = [&]() {
    bool nan = false;
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      nan |= detail::is_nan(pairs[i]) && (tile > 0 || threadIdx.x > 0 || i > 0);
    }
    return nan;
  };
  if (tile == 0)
  {
    Local aggregate;
    if constexpr (TWIN)
    {
      Scan(temp.scan.scan).ExclusiveScan(pairs, pairs, LocalFirstOp(), aggregate);
      if (__syncthreads_or(first_nan() || detail::is_nan(aggregate)))
      {
        temp.scan.rescan.put_from(d_values, base, valid, bits);
        const Pair all = detail::rescan_first_tile<Rescan>(temp.scan.rescan);
        temp.scan.rescan.take_local(pairs);
        aggregate.key   = static_cast<int>(all.key);
        aggregate.value = all.value;
      }
    }
    else
    {
      Scan(temp.scan.scan).ExclusiveScan(pairs, pairs, LocalOp(), aggregate);
    }
    if (threadIdx.x == 0 && !last_tile)
    {
      Pair inclusive;
      inclusive.key   = aggregate.key;
      inclusive.value = aggregate.value;
      state.SetInclusive(0, inclusive);
    }
    tile_heads = aggregate.key;
  }
  else
  {
    if constexpr (TWIN)
    {
      TwinLookBack look_back(state, temp.scan.twin, tile);
      auto first = look_back.first();
      detail::LocalCounts<V, decltype(first)> local_first{first};
      Scan(temp.scan.scan).ExclusiveScan(pairs, pairs, LocalFirstOp(), local_first);
      const bool rescan = __syncthreads_or(first_nan() || (threadIdx.x == 0 && look_back.again()));
      if (rescan)
      {
        temp.scan.rescan.put_from(d_values, base, valid, bits);
        if (look_back.again())
        {
          detail::rescan_tile<Rescan>(temp.scan.rescan, look_back.with_op());
        }
        else
        {
          detail::rescan_tile<Rescan>(temp.scan.rescan, look_back.known());
        }
      }
      auto counts = look_back.with_op(); // reads what the look-back left in shared memory
      runs_before = counts.GetExclusivePrefix().key;
      tile_heads  = static_cast<int>(counts.GetBlockAggregate().key);
      if (rescan)
      {
        temp.scan.rescan.take_local(pairs);
      }
    }
    else
    {
      Prefix prefix_op(state, temp.scan.prefix, ScanOp(), tile);
      detail::LocalCounts<V, Prefix> local_prefix{prefix_op};
      Scan(temp.scan.scan).ExclusiveScan(pairs, pairs, LocalOp(), local_prefix);
      runs_before = prefix_op.GetExclusivePrefix().key;
      tile_heads  = static_cast<int>(prefix_op.GetBlockAggregate().key);
    }
  }

  // A head at global index g > 0 starts run runs_before + pairs[i].key and
  // ends the run before it, whose aggregate pairs[i].value is; as below,
  // through shared memory when the tile heads more runs than it has threads.
  // For 8-byte values a head's key is read again from d_keys (the block's
  // own recent load) instead of kept in registers through the scan.
  const auto head_key = [&](int i, long long g) -> K {
    if constexpr (detail::rbk_keys_again<V>)
    {
      return K(detail::read_item(d_keys, g));
    }
    else
    {
      return keys[i];
    }
  };
  if (ITEMS_PER_THREAD > 1 && tile_heads > BLOCK_THREADS)
  {
    K* keys_at = temp.staging.keys();
    V* aggs_at = temp.staging.aggs();
    __syncthreads(); // the scan's shared memory is read
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      if (bits.get(i)) // a head within n
      {
        const long long g = base + threadIdx.x * ITEMS_PER_THREAD + i;
        const int at      = g == 0 ? 0 : pairs[i].key;
        keys_at[at]       = head_key(i, g);
        aggs_at[at]       = pairs[i].value; // unused at g == 0
      }
    }
    __syncthreads();
    for (int j = threadIdx.x; j < tile_heads; j += BLOCK_THREADS)
    {
      const long long r = runs_before + j;
      d_unique[r]       = keys_at[j];
      if (r > 0)
      {
        d_aggs[r - 1] = aggs_at[j];
      }
    }
  }
  else
  {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      if (bits.get(i))
      {
        const long long g = base + threadIdx.x * ITEMS_PER_THREAD + i;
        const long long r = g == 0 ? 0 : runs_before + pairs[i].key;
        d_unique[r]       = head_key(i, g);
        if (g > 0)
        {
          d_aggs[r - 1] = pairs[i].value;
        }
      }
    }
  }

  // The last item within n closes the last run, its value read again.
  if (last_tile && threadIdx.x == (valid - 1) / ITEMS_PER_THREAD)
  {
    const int last = (valid - 1) % ITEMS_PER_THREAD;
    Local before   = pairs[0];
#pragma unroll
    for (int i = 1; i < ITEMS_PER_THREAD; ++i)
    {
      if (i == last)
      {
        before = pairs[i];
      }
    }
    Local item;
    item.key             = bits.get(last);
    item.value           = detail::read_item(d_values, base + valid - 1);
    const Local inclusive = base + valid == 1 ? item : LocalOp()(before, item);
    const long long runs  = runs_before + inclusive.key;
    d_aggs[runs - 1]      = inclusive.value;
    d_num_runs[0]         = runs;
  }
}

} // namespace gocccl
