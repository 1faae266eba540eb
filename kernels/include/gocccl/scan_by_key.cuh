/*
 * gocccl/scan_by_key.cuh: device-wide inclusive and exclusive scans by key
 * in a single pass with decoupled look-back, as CUB's AgentScanByKey (the
 * kernel side of runtime.InclusiveScanByKey / ExclusiveScanByKey).
 *
 * Segments are maximal runs of consecutive keys that EqualityOp calls equal:
 * item i starts one when i == 0 or !eq(keys[i-1], keys[i]). Within a
 * segment starting at h:
 *
 *   inclusive  d_out[i] = values[h] op ... op values[i]
 *   exclusive  d_out[h] = init, d_out[i] = init op values[h] op ... op values[i-1]
 *
 *   <sym>_init   scan_by_key_init       readies the tile states: with epoch
 *                                       tile states (epoch_tile_state.cuh)
 *                                       the whole region, once per region,
 *                                       any grid; with CUB's, before every
 *                                       call, grid ceil(num_tiles /
 *                                       BLOCK_THREADS)
 *   <sym>_sweep  inclusive_scan_by_key  grid num_tiles: block b loads the
 *                exclusive_scan_by_key  keys and values of tile b, flags the
 *                                       segment heads (cub::BlockDiscontinuity,
 *                                       with the last key of the tile before
 *                                       as predecessor), and scans (head, value)
 *                                       pairs with the segmented operator
 *                                       (a.head | b.head, b.head ? b.value :
 *                                       op(a.value, b.value)), chaining tiles
 *                                       by look-back.
 *
 * The look-back values are cub::KeyValuePair<int, V>: 8 bytes for V of up
 * to 4 bytes, 16 for 8-byte V (and for V of up to 12 bytes aligned to 4).
 * Where they fit an EpochTileState (at most 16 bytes:
 * epoch_tile_state_supported) the tile states are epoch-tagged; wider
 * pairs keep cub::ReduceByKeyScanTileState<V, int>.
 *
 * Host dispatch as for scan.cuh (runtime/scan_by_key.go): nothing for
 * n == 0, the sweep alone on one block with d_state == nullptr for a single
 * tile. Otherwise, with epoch states, the stream's epoch region
 * (runtime/epochs.go) of at least EpochTileState<Pair>::AllocationSize(
 * num_tiles) bytes, _init over it only when it is new, grown or out of
 * epochs, then _sweep with the call's epoch: one launch per call in the
 * steady state; with CUB's states, _init then _sweep on at least
 * cub::ReduceByKeyScanTileState<V, int>::AllocationSize(num_tiles) bytes.
 * _init traps when state_bytes is too small.
 *
 * The exclusive scan needs no identity: a head writes init, any other item
 * op(init, the segment's values before it).
 * Operators: EqualityOp need only be an equivalence on neighbours as CUB's;
 * ScanOp associative, not necessarily commutative (operands stay in order).
 *
 * d_out may be d_values itself (in place); it must not overlap d_keys (a
 * tile reads the last key of the tile before it). All sizes and offsets are
 * 64-bit; tile indices are int.
 *
 * Recommended policy (internal/algo/scan_by_key.go): CUB's Policy520, 256
 * threads x 9 items when the wider of K and V is at most 8 bytes, fewer
 * beyond; on sm_90, CUB's tuning for 4-byte keys and values, 288 x 14.
 * A float ScanOp with a twin (gpu_nan.cuh) scans each tile with the twin
 * first, and again with ScanOp when a result or the aggregate is a NaN.
 * Requirements: K and V trivially copyable and default
 * constructible; EqualityOp `bool operator()(K, K) const`, ScanOp
 * `V operator()(V, V) const`, both default constructible. Launch with
 * blockDim = (BLOCK_THREADS, 1, 1).
 */
#pragma once

#include <gocccl/config.cuh>
#include <gocccl/epoch_tile_state.cuh>
#include <gocccl/gpu_nan.cuh>
#include <gocccl/look_back.cuh>

#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/util_type.cuh>

#include <type_traits>

namespace gocccl {
namespace detail {

/// True where a segment starts: the keys differ.
template <typename K, typename EqualityOp>
struct SegmentHead
{
  GOCCCL_DEVICE bool operator()(const K& a, const K& b) const { return !EqualityOp()(a, b); }
};

/// The scan operator over (head flag, value) pairs: a head discards the
/// values before it. Associative whenever ScanOp is.
template <typename V, typename ScanOp>
struct SegmentedOp
{
  using Pair = cub::KeyValuePair<int, V>;
  GOCCCL_DEVICE Pair operator()(const Pair& a, const Pair& b) const
  {
    Pair r;
    r.key   = a.key | b.key;
    r.value = b.key ? b.value : ScanOp()(a.value, b.value);
    return r;
  }
};

/// One thread block's tile of a single-pass scan by key.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, typename EqualityOp, typename ScanOp,
          typename Delay = DefaultDelay>
struct ScanByKeyTile
{
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;

  static_assert(BLOCK_THREADS > 0 && BLOCK_THREADS % 32 == 0 && BLOCK_THREADS <= 1024,
                "gocccl::scan_by_key: BLOCK_THREADS must be a multiple of 32 in [32, 1024]");
  static_assert(ITEMS_PER_THREAD > 0, "gocccl::scan_by_key: ITEMS_PER_THREAD must be positive");
  static_assert(std::is_trivially_copyable<K>::value && std::is_trivially_copyable<V>::value,
                "gocccl::scan_by_key: K and V must be trivially copyable");

  using Pair   = cub::KeyValuePair<int, V>;
  using PairOp = SegmentedOp<V, ScanOp>;
  /// EPOCH: tile states tagged with the call's epoch (epoch_tile_state.cuh)
  /// for pairs of at most 16 bytes (see the file comment); CUB's otherwise.
  static constexpr bool EPOCH = epoch_tile_state_supported<Pair>;
  using TileState =
    typename std::conditional<EPOCH, EpochTileState<Pair>, cub::ReduceByKeyScanTileState<V, int>>::type;
  using LoadKeysT   = cub::BlockLoad<K, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using LoadValuesT = cub::BlockLoad<V, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using StoreT      = cub::BlockStore<V, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using HeadsT      = cub::BlockDiscontinuity<K, BLOCK_THREADS>;
  using BlockScanT  = cub::BlockScan<Pair, BLOCK_THREADS, cub::BLOCK_SCAN_WARP_SCANS>;
  using PrefixOpT   = TilePrefix<Pair, PairOp, TileState, Delay>;

  /// TWIN: tiles are scanned first with FirstOp, over ScanOp's twin with
  /// the GPU's NaNs (gpu_nan.cuh), and again with PairOp when a NaN came out.
  static constexpr bool TWIN = GpuNan<ScanOp, V>::value;
  using FirstOp              = SegmentedOp<V, typename GpuNan<ScanOp, V>::type>;
  using TwinLookBackT        = TwinLookBack<Pair, PairOp, FirstOp, TileState, Delay>;

  union Storage
  {
    typename LoadKeysT::TempStorage load_keys;
    typename LoadValuesT::TempStorage load_values;
    typename HeadsT::TempStorage heads;
    typename StoreT::TempStorage store;
    struct
    {
      typename PrefixOpT::TempStorage prefix;
      typename BlockScanT::TempStorage scan;
      typename TwinLookBackT::TempStorage twin;
    } scan;
  };
  using TempStorage = cub::Uninitialized<Storage>;

  /// HeadBits keeps a thread's head flags as bits through the first scan,
  /// for a second one.
  struct HeadBits
  {
    unsigned words[(ITEMS_PER_THREAD + 31) / 32] = {};
    GOCCCL_DEVICE void set(int i, bool head) { words[i / 32] |= unsigned(head) << (i % 32); }
    GOCCCL_DEVICE int get(int i) const { return (words[i / 32] >> (i % 32)) & 1u; }
  };

  /// Scans tile 0's pairs with op; returns the aggregate.
  template <bool INCLUSIVE, typename Op>
  static GOCCCL_DEVICE Pair scan_first(Storage& temp, Pair (&pairs)[ITEMS_PER_THREAD], Op op)
  {
    Pair aggregate;
    if (INCLUSIVE)
    {
      BlockScanT(temp.scan.scan).InclusiveScan(pairs, pairs, op, aggregate);
    }
    else
    {
      // Thread 0's first result is undefined, but item 0 is a head.
      BlockScanT(temp.scan.scan).ExclusiveScan(pairs, pairs, op, aggregate);
    }
    return aggregate;
  }

  /// Scans a later tile's pairs with op, the prefix from the callback.
  template <bool INCLUSIVE, typename Op, typename Prefix>
  static GOCCCL_DEVICE void scan_later(Storage& temp, Pair (&pairs)[ITEMS_PER_THREAD], Op op, Prefix& prefix)
  {
    if (INCLUSIVE)
    {
      BlockScanT(temp.scan.scan).InclusiveScan(pairs, pairs, op, prefix);
    }
    else
    {
      BlockScanT(temp.scan.scan).ExclusiveScan(pairs, pairs, op, prefix);
    }
  }

  /// Whether a scanned pair of this thread holds a NaN (tile 0's undefined
  /// first exclusive result aside).
  template <bool INCLUSIVE>
  static GOCCCL_DEVICE bool first_nan(const Pair (&pairs)[ITEMS_PER_THREAD], int tile_idx)
  {
    bool nan = false;
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      nan |= is_nan(pairs[i]) && (INCLUSIVE || tile_idx > 0 || threadIdx.x > 0 || i > 0);
    }
    return nan;
  }

  /// Writes the exclusive results: init at a head, else init op the prefix.
  /// With a twin (TWIN_SEED), the twin first, and ScanOp where it gave a
  /// NaN (gpu_nan.cuh: where the twin gives a number, ScanOp gives the
  /// same). How depends on V's size, both measured on the H200 (bench/NOTES.md,
  /// 2026-12-04, fifth and sixth sessions):
  /// - up to 4 bytes, per thread: the twin over all the thread's items, then
  ///   ScanOp over all of them when one gave a NaN. ScanOp's per-item NaN
  ///   branch stays out of the unrolled loop; the prefixes stay live next to
  ///   the results, 14 more 4-byte registers, which fit (per item, float32's
  ///   exclusive scan by key took 4–6 % longer at 2^24–2^28).
  /// - 8 bytes and more, per item: keeping the prefixes live beside the
  ///   results took 14 more 8-byte registers, and the float64 exclusive sweep
  ///   spilled 192 bytes at 224 x 14 with __launch_bounds__(224, 4) (1.22 /
  ///   1.28x CUB; per item 72 registers, no spill, 1.05 / 1.14x). ptxas
  ///   if-converts gosem's NaN fix-up (no scan step around it, unlike the
  ///   warp scans).
  template <bool TWIN_SEED>
  static GOCCCL_DEVICE void seed(V (&values)[ITEMS_PER_THREAD], const int (&heads)[ITEMS_PER_THREAD],
                                 const Pair (&pairs)[ITEMS_PER_THREAD], const V& init)
  {
    if constexpr (TWIN_SEED && sizeof(V) <= 4)
    {
      using Twin = typename GpuNan<ScanOp, V>::type;
      bool nan   = false;
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        values[i] = heads[i] ? init : Twin()(init, pairs[i].value);
        nan |= is_nan(values[i]);
      }
      if (nan)
      {
#pragma unroll
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          values[i] = heads[i] ? init : ScanOp()(init, pairs[i].value);
        }
      }
    }
    else
    {
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        values[i] = heads[i] ? init : seed_item<TWIN_SEED>(init, pairs[i].value);
      }
    }
  }

  /// One exclusive result of seed's per-item form: the twin, and ScanOp
  /// where it gave a NaN.
  template <bool TWIN_SEED>
  static GOCCCL_DEVICE V seed_item(const V& init, const V& prefix)
  {
    if constexpr (TWIN_SEED)
    {
      const V v = typename GpuNan<ScanOp, V>::type()(init, prefix);
      return is_nan(v) ? ScanOp()(init, prefix) : v;
    }
    else
    {
      return ScanOp()(init, prefix);
    }
  }

  /// Scans the tile again with PairOp (its twin gave a NaN) and stores it,
  /// in rolled loops over each thread's items, read from d_values and
  /// written to d_out one at a time, around a block scan of one pair a
  /// thread: code never executed where no NaN occurs holds one inlined
  /// operator a loop instead of one per item and step, and weighs nothing
  /// on the first scan's schedule. It folds as CUB's BlockScan does (each
  /// thread's items in order, then the threads'); a thread reads and writes
  /// only its own items (in place is safe). Prefix is the look-back's
  /// callback, or Pair for tile 0 (then it receives the aggregate).
  template <bool INCLUSIVE, bool LAST, typename ValuesIt, typename Prefix>
  static GOCCCL_DEVICE void rescan(Storage& temp, ValuesIt d_values, V* d_out, long long tile_offset, int valid_items,
                                   const HeadBits& heads, const V& init, Prefix& prefix)
  {
    constexpr bool FIRST = std::is_same<Prefix, Pair>::value;
    const int first      = threadIdx.x * ITEMS_PER_THREAD;
    const auto item      = [&](int i) {
      const int local = first + i;
      Pair p;
      p.key   = heads.get(i);
      p.value = !LAST || local < valid_items ? *(d_values + (tile_offset + local)) : *(d_values + tile_offset);
      return p;
    };
    Pair running = item(0);
#pragma unroll 1
    for (int i = 1; i < ITEMS_PER_THREAD; ++i)
    {
      running = PairOp()(running, item(i));
    }
    BlockScanT(temp.scan.scan).ExclusiveScan(running, running, PairOp(), prefix);
    ScanOp op;
#pragma unroll 1
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const Pair p          = item(i);
      const Pair before     = running;
      const bool no_prefix  = FIRST && threadIdx.x == 0 && i == 0; // tile 0's item 0: a head
      running               = no_prefix ? p : PairOp()(before, p);
      if (!LAST || first + i < valid_items)
      {
        d_out[tile_offset + first + i] = INCLUSIVE ? running.value : p.key ? init : op(init, before.value);
      }
    }
  }

  template <bool INCLUSIVE, bool LAST, typename KeysIt, typename ValuesIt>
  static GOCCCL_DEVICE void consume(Storage& temp, TileState& state, KeysIt d_keys, ValuesIt d_values, V* d_out,
                                    int tile_idx, long long tile_offset, int valid_items, const V& init)
  {
    K keys[ITEMS_PER_THREAD];
    V values[ITEMS_PER_THREAD];
    if (LAST)
    {
      // Out-of-range slots repeat the tile's first item; never stored.
      LoadKeysT(temp.load_keys).Load(d_keys + tile_offset, keys, valid_items, *(d_keys + tile_offset));
      __syncthreads();
      LoadValuesT(temp.load_values).Load(d_values + tile_offset, values, valid_items, *(d_values + tile_offset));
    }
    else
    {
      LoadKeysT(temp.load_keys).Load(d_keys + tile_offset, keys);
      __syncthreads();
      LoadValuesT(temp.load_values).Load(d_values + tile_offset, values);
    }
    __syncthreads();

    int heads[ITEMS_PER_THREAD];
    if (tile_idx == 0)
    {
      HeadsT(temp.heads).FlagHeads(heads, keys, SegmentHead<K, EqualityOp>()); // item 0 is a head
    }
    else
    {
      const K predecessor = *(d_keys + (tile_offset - 1));
      HeadsT(temp.heads).FlagHeads(heads, keys, SegmentHead<K, EqualityOp>(), predecessor);
    }
    Pair pairs[ITEMS_PER_THREAD];
    HeadBits head_bits;
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      pairs[i].key   = heads[i];
      pairs[i].value = values[i];
      head_bits.set(i, heads[i] != 0);
    }
    __syncthreads();

    if (tile_idx == 0)
    {
      Pair aggregate = scan_first<INCLUSIVE>(temp, pairs, FirstOp());
      if constexpr (TWIN)
      {
        if (__syncthreads_or(first_nan<INCLUSIVE>(pairs, tile_idx) || is_nan(aggregate)))
        {
          rescan<INCLUSIVE, LAST>(temp, d_values, d_out, tile_offset, valid_items, head_bits, init, aggregate);
          if (!LAST && threadIdx.x == 0)
          {
            state.SetInclusive(0, aggregate);
          }
          return;
        }
      }
      if (!LAST && threadIdx.x == 0)
      {
        state.SetInclusive(0, aggregate);
      }
    }
    else
    {
      if constexpr (TWIN)
      {
        TwinLookBackT look_back(state, temp.scan.twin, tile_idx);
        auto first = look_back.first();
        scan_later<INCLUSIVE>(temp, pairs, FirstOp(), first);
        if (__syncthreads_or(first_nan<INCLUSIVE>(pairs, tile_idx) || (threadIdx.x == 0 && look_back.again())))
        {
          if (look_back.again()) // the stash is intact: the rescan reads d_values itself
          {
            auto with_op = look_back.with_op();
            rescan<INCLUSIVE, LAST>(temp, d_values, d_out, tile_offset, valid_items, head_bits, init, with_op);
          }
          else
          {
            auto known = look_back.known();
            rescan<INCLUSIVE, LAST>(temp, d_values, d_out, tile_offset, valid_items, head_bits, init, known);
          }
          return; // the whole block: the barrier's result is the same in every thread
        }
      }
      else
      {
        PrefixOpT look_back(state, temp.scan.prefix, PairOp(), tile_idx);
        scan_later<INCLUSIVE>(temp, pairs, PairOp(), look_back);
      }
    }
    if (INCLUSIVE)
    {
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        values[i] = pairs[i].value;
      }
    }
    else
    {
      seed<TWIN>(values, heads, pairs, init);
    }
    __syncthreads();

    if (LAST)
    {
      StoreT(temp.store).Store(d_out + tile_offset, values, valid_items);
    }
    else
    {
      StoreT(temp.store).Store(d_out + tile_offset, values);
    }
  }

  template <bool INCLUSIVE, typename KeysIt, typename ValuesIt>
  static GOCCCL_DEVICE void sweep(KeysIt d_keys, ValuesIt d_values, V* d_out, long long n, void* d_state,
                                  long long state_bytes, unsigned epoch, const V& init)
  {
    __shared__ TempStorage temp;

    const int tile_idx = static_cast<int>(blockIdx.x);
    const long long tile_offset = static_cast<long long>(tile_idx) * TILE_ITEMS;
    if (tile_offset >= n)
    {
      return;
    }
    const long long num_tiles = (n + TILE_ITEMS - 1) / TILE_ITEMS;
    TileState state;
    if (num_tiles > 1)
    {
      if constexpr (EPOCH)
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
    const long long remaining = n - tile_offset;
    if (remaining > TILE_ITEMS)
    {
      consume<INCLUSIVE, false>(temp.Alias(), state, d_keys, d_values, d_out, tile_idx, tile_offset, TILE_ITEMS, init);
    }
    else
    {
      consume<INCLUSIVE, true>(temp.Alias(), state, d_keys, d_values, d_out, tile_idx, tile_offset,
                               static_cast<int>(remaining), init);
    }
  }
};

} // namespace detail

/**
 * \brief Kernel 1 of a multi-tile scan by key: readies the tile states in
 * d_state. With epoch tile states (pairs of at most 16 bytes) it
 * initializes the whole region (epoch_tile_state_init: the host launches it
 * once per region, not per call) and ignores num_tiles beyond checking the
 * size; otherwise it marks the num_tiles CUB tile states invalid, before
 * every multi-tile sweep.
 *
 * \param d_state      tile states, state_bytes bytes of device memory (16-byte aligned)
 * \param state_bytes  at least the states' AllocationSize(num_tiles); traps otherwise
 * \param num_tiles    tiles of the sweep, >= 1
 *
 * Launch: any grid for epoch states (grid-stride over the region's
 * state_bytes / 8 words); gridDim.x == ceil(num_tiles / BLOCK_THREADS)
 * otherwise.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, typename EqualityOp, typename ScanOp>
__device__ void scan_by_key_init(void* d_state, long long state_bytes, long long num_tiles)
{
  using Tile      = detail::ScanByKeyTile<BLOCK_THREADS, ITEMS_PER_THREAD, K, V, EqualityOp, ScanOp>;
  using TileState = typename Tile::TileState;
  if constexpr (Tile::EPOCH)
  {
    init_epoch_tile_states<TileState>(d_state, state_bytes, num_tiles);
  }
  else
  {
    size_t need = 0;
    if (TileState::AllocationSize(static_cast<int>(num_tiles), need) != cudaSuccess
        || need > static_cast<size_t>(state_bytes))
    {
      __trap(); // the host sized the state too small: a bug, never a wrong result
    }
    TileState state;
    state.Init(static_cast<int>(num_tiles), d_state, static_cast<size_t>(state_bytes));
    state.InitializeStatus(static_cast<int>(num_tiles));
  }
}

/**
 * \brief Inclusive scan of d_values by segments of equal d_keys:
 * d_out[i] = d_values[h] op ... op d_values[i], h the start of i's segment.
 *
 * \tparam K, V                      key and value types
 * \tparam EqualityOp, ScanOp        default-constructible functors
 * \tparam KeysIt, ValuesIt          random-access input iterators (deduced; `const K*`, `const V*` today)
 *
 * \param n            item count, n >= 1
 * \param d_state      tile states readied by scan_by_key_init; unused (may be null) when n <= TILE
 * \param state_bytes  size of d_state
 * \param epoch        with epoch tile states, this call's epoch (1 .. EPOCH_TILE_MAX, distinct
 *                     since the region's init: epoch_tile_state.cuh's host protocol); ignored
 *                     otherwise
 * \param Delay        the look-back's waits (look_back.cuh), a tag; DefaultDelay when left out
 *
 * Launch: gridDim.x == ceil(n / (BLOCK_THREADS * ITEMS_PER_THREAD)); with
 * more than one tile, after scan_by_key_init on the same stream (once per
 * region for epoch states, before every call otherwise).
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, typename EqualityOp, typename ScanOp,
          typename KeysIt, typename ValuesIt, typename Delay = DefaultDelay>
__device__ void inclusive_scan_by_key(KeysIt d_keys, ValuesIt d_values, V* d_out, long long n, void* d_state,
                                      long long state_bytes, unsigned epoch, Delay = Delay())
{
  detail::ScanByKeyTile<BLOCK_THREADS, ITEMS_PER_THREAD, K, V, EqualityOp, ScanOp, Delay>::template sweep<true>(
    d_keys, d_values, d_out, n, d_state, state_bytes, epoch, V{});
}

/**
 * \brief Exclusive scan of d_values by segments of equal d_keys, seeded with
 * init at every segment start: d_out[h] = init, d_out[i] = init op
 * d_values[h] op ... op d_values[i-1]. Otherwise as inclusive_scan_by_key.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, typename EqualityOp, typename ScanOp,
          typename KeysIt, typename ValuesIt, typename Delay = DefaultDelay>
__device__ void exclusive_scan_by_key(KeysIt d_keys, ValuesIt d_values, V* d_out, long long n, void* d_state,
                                      long long state_bytes, unsigned epoch, V init, Delay = Delay())
{
  detail::ScanByKeyTile<BLOCK_THREADS, ITEMS_PER_THREAD, K, V, EqualityOp, ScanOp, Delay>::template sweep<false>(
    d_keys, d_values, d_out, n, d_state, state_bytes, epoch, init);
}

} // namespace gocccl
