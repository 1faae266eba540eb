/*
 * gocccl/select.cuh: stream compaction in one pass with decoupled look-back
 * (the kernel side of runtime.Select, Partition, Unique, UniqueByKey,
 * ThreeWayPartition and RunLengthEncode), built the way CUB's AgentSelectIf
 * and AgentRle are: cub::BlockLoad, cub::BlockDiscontinuity, cub::BlockScan,
 * cub::TilePrefixCallbackOp, over epoch-tagged tile states
 * (gocccl::EpochTileState, epoch_tile_state.cuh) in place of
 * cub::ScanTileState.
 *
 *   <sym>_init    grid any (grid-stride; the host's lookBack.initGrid):
 *                 with n == 0 (tiles == 0) only writes zeros to the counts;
 *                 otherwise initializes the whole epoch region d_state of
 *                 state_bytes (epoch_tile_state_init), once per region, not
 *                 per call.
 *   <sym>_<sweep> grid tiles (n >= 1): block b owns tile b. It loads the
 *                 tile, flags its items, scans the flags within the block,
 *                 learns the total of all earlier tiles by decoupled
 *                 look-back over their tile states, tagged with the call's
 *                 epoch, and scatters. The block of the last tile writes the
 *                 counts.
 *
 * Host dispatch (runtime/compaction.go, compactThrough): tiles =
 * ceil(n / TILE). n == 0: _init alone, for the counts (d_state null). One
 * tile: _sweep alone, with d_state null and epoch 0 (a single tile
 * publishes nothing and looks back at nothing). More: the stream's epoch
 * region of at least EpochTileState<S>::AllocationSize(tiles) bytes for the
 * carry S below; _init over it when it is new, grown or its epochs run out
 * (or the call is captured), then _sweep with the call's epoch: ONE launch
 * per call in the steady state.
 *
 * Every sweep's parameters end with (n, d_state, state_bytes, epoch): n >= 1
 * items; the epoch region and its size (d_state unused, and may be null,
 * for a single tile); and the call's epoch, 1 .. EPOCH_TILE_MAX, distinct
 * since the region's last init (epoch_tile_state.cuh's host protocol;
 * ignored for a single tile). The sweeps of select_if, partition_if, unique,
 * unique_by_key, three_way_partition and rle_encode take the look-back's
 * Delay tag after them (look_back.cuh; DefaultDelay when left out).
 *
 * Scan values carried between tiles (the look-back values S, all of them
 * within EpochTileState's 16 bytes):
 *   select, partition, unique, unique_by_key   long long (8 bytes): items selected so far
 *   three_way_partition                        items of part 1, of part 2: PackedCounts (one
 *                                              8-byte word) below 2^32 items, else
 *                                              WideCounts (Pair<long long>, 16 bytes)
 *   rle_encode, rle_non_trivial                run heads so far (rle_non_trivial: runs of length
 *                                              > 1 ended so far), position of the last head:
 *                                              PackedCountPos (one 8-byte word) below 2^32
 *                                              items, else WideCountPos (Pair<long long>, 16)
 * ("below 2^32 items": tiles * TILE < 2^32, packs_counts.) The positions
 * combine with max (positions only grow; -1 is "none"), the counts with +,
 * so every scan operator is associative.
 *
 * Scatter: a tile's kept items are first compacted in shared memory and then
 * written with consecutive threads on consecutive addresses (CUB's two-phase
 * scatter) when the tile keeps more items than it has threads; otherwise
 * every thread writes its own kept items directly. Partitions always go
 * through shared memory.
 *
 * Full tiles: select, partition, unique and unique_by_key compile their tile
 * twice, once for the grid's last tile, which may be partial and writes the
 * counts, and once for all the others, which are full and check no item
 * against n (CUB's ConsumeTile<IS_LAST_TILE>; by_tile below).
 *
 * Scratch: d_state holds the tile states, state_bytes long; _init, and every
 * sweep of more than one tile, trap when it is shorter than
 * EpochTileState<S>::AllocationSize(tiles).
 *
 * All sizes and global indices are 64-bit. Tiles are numbered with int (as
 * the tile states and TilePrefixCallbackOp require): n <= (2^31 - 1) * TILE.
 *
 * ---------------------------------------------------------------------------
 * Policy (internal/algo/select.go): 128 threads, ITEMS = clamp(64 / S, 1, 16)
 * items per thread for the widest element type of S bytes (4 bytes: 16 items,
 * a tile of 2048), like CUB's select tuning with more items in flight; on
 * sm_90 and newer, 4-byte items take CUB 3.0's sm_90 tiles instead: select,
 * partition and unique 384 x 17, three_way_partition 256 x 23 (CUB's tuning
 * for 64-bit offsets), unique_by_key 512 x 14.
 * ---------------------------------------------------------------------------
 *
 * Requirements: item types trivially copyable; functors default
 * constructible with `bool operator()(T) const` (predicates) or
 * `bool operator()(T, T) const` (equality, called as eq(previous, next)).
 * Launch with blockDim = (BLOCK_THREADS, 1, 1) and, for the sweeps, a grid of
 * exactly ceil(n / TILE) blocks: the grid's last block is the one that checks
 * items against n (by_tile), every other block reads and scatters a full tile
 * unchecked (runtime/compaction.go's compactThrough launches that grid).
 */
#pragma once

#include <gocccl/config.cuh>
#include <gocccl/epoch_tile_state.cuh>
#include <gocccl/look_back.cuh>

#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>

namespace gocccl {
namespace detail {
namespace select {

/// Two 64-bit values carried between tiles; I is int within a tile.
template <typename I>
struct Pair
{
  I a, b;
};

/// Adds counts.
struct SumOp
{
  template <typename I>
  __host__ __device__ __forceinline__ I operator()(const I& x, const I& y) const
  {
    return x + y;
  }
};

/// Adds both members (two counts).
struct SumSumOp
{
  template <typename I>
  __host__ __device__ __forceinline__ Pair<I> operator()(const Pair<I>& x, const Pair<I>& y) const
  {
    return Pair<I>{x.a + y.a, x.b + y.b};
  }
};

/// Adds the counts and keeps the later position.
struct SumMaxOp
{
  template <typename I>
  __host__ __device__ __forceinline__ Pair<I> operator()(const Pair<I>& x, const Pair<I>& y) const
  {
    return Pair<I>{x.a + y.a, x.b > y.b ? x.b : y.b};
  }
};

/// The two counts a three-way partition carries between tiles, packed into
/// one 64-bit word (part 1 in the high half, part 2 in the low half) as CUB
/// packs its two 32-bit offsets: a plain add adds both halves while part 2's
/// count stays below 2^32, and a tile's state is then two 8-byte epoch
/// words instead of four. Used when all the tiles hold fewer than 2^32
/// items; WideCounts (a Pair of 64-bit counts) otherwise.
struct PackedCounts
{
  using S = unsigned long long;
  using Op = SumOp;
  static GOCCCL_DEVICE S make(long long a, long long b) { return (static_cast<S>(a) << 32) | static_cast<S>(b); }
  static GOCCCL_DEVICE long long first(S s) { return static_cast<long long>(s >> 32); }
  static GOCCCL_DEVICE long long second(S s) { return static_cast<long long>(s & 0xffffffffull); }
};

/// The two counts as a Pair of 64-bit counts, for any number of items.
struct WideCounts
{
  using S = Pair<long long>;
  using Op = SumSumOp;
  static GOCCCL_DEVICE S make(long long a, long long b) { return S{a, b}; }
  static GOCCCL_DEVICE long long first(S s) { return s.a; }
  static GOCCCL_DEVICE long long second(S s) { return s.b; }
};

/// Whether tiles tiles of TILE items pack their counts (PackedCounts).
template <int TILE>
GOCCCL_DEVICE bool packs_counts(long long tiles)
{
  return tiles * TILE < (1LL << 32);
}

/// The carry between the tiles of a run-length encoding, a count and the
/// position of the last run head (-1: none so far), packed into one 64-bit
/// word, the count above the position + 1: a tile's state is then two epoch
/// words instead of four, as for PackedCounts. Used when all the tiles hold
/// fewer than 2^32 items; WideCountPos otherwise.
struct PackedCountPos
{
  using S = unsigned long long;
  static constexpr S LOW = 0xffffffffull;
  /// Adds the counts and keeps the later position.
  struct Op
  {
    __host__ __device__ __forceinline__ S operator()(const S& x, const S& y) const
    {
      const S px = x & LOW, py = y & LOW;
      return (((x >> 32) + (y >> 32)) << 32) | (px > py ? px : py);
    }
  };
  static GOCCCL_DEVICE S make(long long count, long long pos)
  {
    return (static_cast<S>(count) << 32) | static_cast<S>(pos + 1);
  }
  static GOCCCL_DEVICE Pair<long long> unpack(S s)
  {
    return Pair<long long>{static_cast<long long>(s >> 32), static_cast<long long>(s & LOW) - 1};
  }
};

/// The carry of a run-length encoding as a Pair of 64-bit values.
struct WideCountPos
{
  using S = Pair<long long>;
  using Op = SumMaxOp;
  static GOCCCL_DEVICE S make(long long count, long long pos) { return S{count, pos}; }
  static GOCCCL_DEVICE Pair<long long> unpack(S s) { return s; }
};

/// Discontinuity of an equality functor: true where a run ends.
template <typename EqOp>
struct NotEqual
{
  template <typename T>
  __device__ __forceinline__ bool operator()(const T& a, const T& b) const
  {
    return !EqOp()(a, b);
  }
};

/// A sweep's tile-state arguments (its d_state, state_bytes and epoch),
/// bound only where the look-back runs, so that the binding holds no
/// registers while a block loads and scans its tile.
struct States
{
  void* d_state;
  long long bytes;
  unsigned epoch;
};

/// The tile states of a scan value S and the look-back over them, which
/// waits as Delay says (look_back.cuh). Every S here fits an epoch tile
/// state, so the compactions have no CUB-state form.
template <typename S, typename ScanOp, typename Delay = DefaultDelay>
struct LookBack
{
  static_assert(epoch_tile_state_supported<S>, "gocccl::select: a carry of at most 16 bytes");
  using TileState = EpochTileState<S>;
  using PrefixOp = TilePrefix<S, ScanOp, TileState, Delay>;

  struct TempStorage
  {
    typename PrefixOp::TempStorage prefix;
    S exclusive;
  };

  /// Bytes of the tile states of tiles tiles, which bind checks the region
  /// against.
  static GOCCCL_DEVICE long long bytes(long long tiles)
  {
    return static_cast<long long>(TileState::AllocationSize(tiles));
  }

  /// Binds the tile states of a sweep over gridDim.x > 1 tiles with the
  /// call's epoch; traps when the region is short.
  static GOCCCL_DEVICE TileState bind(const States& states)
  {
    if (bytes(gridDim.x) > states.bytes)
    {
      __trap(); // the host sized d_state wrong: fail the launch, never scribble
    }
    TileState state;
    state.Init(states.d_state, states.epoch);
    return state;
  }

  /// Returns, in every thread, the scan of all tiles before tile (identity
  /// for tile 0), and publishes this tile's aggregate when there are other
  /// tiles (gridDim.x > 1; a single tile touches no state, and its d_state
  /// may be null). Ends with a barrier.
  static GOCCCL_DEVICE S exclusive(TempStorage& temp, const States& states, int tile, S aggregate, S identity)
  {
    if (tile == 0)
    {
      if (threadIdx.x == 0)
      {
        if (gridDim.x > 1)
        {
          bind(states).SetInclusive(0, aggregate);
        }
        temp.exclusive = identity;
      }
    }
    else if (threadIdx.x < 32)
    {
      TileState state = bind(states);
      PrefixOp op(state, temp.prefix, ScanOp(), tile);
      const S prefix = op(aggregate);
      if (threadIdx.x == 0)
      {
        temp.exclusive = prefix;
      }
    }
    __syncthreads();
    return temp.exclusive;
  }
};

/// The init kernel's body: with tiles == 0, zeros to the COUNTS counts;
/// otherwise initializes the whole epoch region (any grid), after checking
/// that it holds the tile states of tiles tiles of carry S.
template <typename S, int COUNTS, typename CountIt>
GOCCCL_DEVICE void init(void* d_state, long long state_bytes, long long tiles, CountIt d_count)
{
  if (tiles == 0)
  {
    if (blockIdx.x == 0 && threadIdx.x < COUNTS)
    {
      d_count[threadIdx.x] = 0;
    }
    return;
  }
  init_epoch_tile_states<EpochTileState<S>>(d_state, state_bytes, tiles);
}

/// Shared memory that holds a tile's items during a two-phase scatter.
template <typename T, int TILE>
struct Staging
{
  alignas(T) unsigned char bytes[sizeof(T) * TILE];
  GOCCCL_DEVICE T* items() { return reinterpret_cast<T*>(bytes); }
};

/// One tile of a block: where it starts and how many items it holds.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
struct Tile
{
  static constexpr int ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  int index;        // tile number
  long long base;   // first item
  int valid;        // items in the tile, ITEMS except in the last tile
  bool last;

  GOCCCL_DEVICE explicit Tile(long long n)
  {
    index = static_cast<int>(blockIdx.x);
    base = static_cast<long long>(index) * ITEMS;
    const long long left = n - base;
    valid = left < ITEMS ? static_cast<int>(left) : ITEMS;
    last = left <= ITEMS;
  }

  /// Position of item i of this thread within the tile (blocked arrangement).
  static GOCCCL_DEVICE int at(int i) { return static_cast<int>(threadIdx.x) * ITEMS_PER_THREAD + i; }
};

/// flag_run_heads flags the items of a tile that start a run of items equal
/// under Eq (unique, unique_by_key): the tile's first item against its
/// predecessor d_in[base - 1], tile 0's first always; in the grid's last
/// tile (LAST), no item past n. The caller syncs before HeadsT's storage is
/// reused.
template <bool LAST, int BLOCK_THREADS, int ITEMS_PER_THREAD, typename Eq, typename K, typename It>
__device__ __forceinline__ void flag_run_heads(typename cub::BlockDiscontinuity<K, BLOCK_THREADS>::TempStorage& heads,
                                               const Tile<BLOCK_THREADS, ITEMS_PER_THREAD>& tile, It d_in,
                                               K (&items)[ITEMS_PER_THREAD], int (&flags)[ITEMS_PER_THREAD])
{
  using HeadsT = cub::BlockDiscontinuity<K, BLOCK_THREADS>;
  if (tile.index == 0)
  {
    HeadsT(heads).FlagHeads(flags, items, NotEqual<Eq>());
  }
  else
  {
    const K predecessor = d_in[tile.base - 1];
    HeadsT(heads).FlagHeads(flags, items, NotEqual<Eq>(), predecessor);
  }
  if (LAST)
  {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      flags[i] = flags[i] && Tile<BLOCK_THREADS, ITEMS_PER_THREAD>::at(i) < tile.valid;
    }
  }
}

/// Loads a tile in blocked arrangement; items past the end of a partial tile
/// repeat the last valid item, so operators only ever see input values.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T>
struct Loader
{
  using BlockLoadT = cub::BlockLoad<T, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using TempStorage = typename BlockLoadT::TempStorage;

  template <typename InputIt>
  static GOCCCL_DEVICE void load(TempStorage& temp, InputIt d_in, const Tile<BLOCK_THREADS, ITEMS_PER_THREAD>& tile,
                                 T (&items)[ITEMS_PER_THREAD])
  {
    if (tile.valid == Tile<BLOCK_THREADS, ITEMS_PER_THREAD>::ITEMS)
    {
      load<true>(temp, d_in, tile, items);
    }
    else
    {
      load<false>(temp, d_in, tile, items);
    }
  }

  /// As above, for a tile known to be full (FULL) or possibly partial.
  template <bool FULL, typename InputIt>
  static GOCCCL_DEVICE void load(TempStorage& temp, InputIt d_in, const Tile<BLOCK_THREADS, ITEMS_PER_THREAD>& tile,
                                 T (&items)[ITEMS_PER_THREAD])
  {
    if constexpr (FULL)
    {
      BlockLoadT(temp).Load(d_in + tile.base, items);
    }
    else
    {
      const T fill = d_in[tile.base + tile.valid - 1];
      BlockLoadT(temp).Load(d_in + tile.base, items, tile.valid, fill);
    }
  }
};

/// Runs body(std::true_type()) in the grid's last block and
/// body(std::false_type()) in all the others. A sweep runs one block per
/// tile, so only the last tile can be partial (the others are full whatever
/// n is) and only it writes the counts: the others' code checks no item
/// against n, as CUB's AgentSelectIf::ConsumeTile<IS_LAST_TILE>. With the
/// check in every tile, ptxas kept each tile's flags as bits set one by one
/// and tested again for the scatter: unique and select ran 15 % more
/// instructions than CUB's sweep (Nsight Compute, H200, 2^28 uint32).
template <typename Body>
GOCCCL_DEVICE void by_tile(Body&& body)
{
  if (blockIdx.x + 1 == gridDim.x)
  {
    body(std::true_type());
  }
  else
  {
    body(std::false_type());
  }
}

/// Writes a tile's kept items (flags[i] != 0, in order) to out[0..kept):
/// through shared memory when the tile keeps more items than it has threads,
/// else directly. ranks[i] is the item's rank among the tile's kept items.
/// Begins with a barrier, so the staging memory may alias earlier storage.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename OutputIt>
GOCCCL_DEVICE void compact(Staging<T, BLOCK_THREADS * ITEMS_PER_THREAD>& staging, const T (&items)[ITEMS_PER_THREAD],
                           const int (&flags)[ITEMS_PER_THREAD], const int (&ranks)[ITEMS_PER_THREAD], int kept,
                           OutputIt out)
{
  if (ITEMS_PER_THREAD > 1 && kept > BLOCK_THREADS)
  {
    T* s = staging.items();
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      if (flags[i])
      {
        s[ranks[i]] = items[i];
      }
    }
    __syncthreads();
    for (int k = threadIdx.x; k < kept; k += BLOCK_THREADS)
    {
      out[k] = s[k];
    }
  }
  else
  {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      if (flags[i])
      {
        out[ranks[i]] = items[i];
      }
    }
  }
}

/// compact for keys and values at the same ranks: the two arrays stage one
/// after the other (their staging memory may alias), and the direct path
/// writes both of an item at once.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, typename KeyOutIt, typename ValueOutIt>
GOCCCL_DEVICE void compact(Staging<K, BLOCK_THREADS * ITEMS_PER_THREAD>& staged_keys,
                           Staging<V, BLOCK_THREADS * ITEMS_PER_THREAD>& staged_values, const K (&keys)[ITEMS_PER_THREAD],
                           const V (&values)[ITEMS_PER_THREAD], const int (&flags)[ITEMS_PER_THREAD],
                           const int (&ranks)[ITEMS_PER_THREAD], int kept, KeyOutIt keys_out, ValueOutIt values_out)
{
  if (ITEMS_PER_THREAD > 1 && kept > BLOCK_THREADS)
  {
    compact<BLOCK_THREADS, ITEMS_PER_THREAD>(staged_keys, keys, flags, ranks, kept, keys_out);
    compact<BLOCK_THREADS, ITEMS_PER_THREAD>(staged_values, values, flags, ranks, kept, values_out);
  }
  else
  {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      if (flags[i])
      {
        keys_out[ranks[i]] = keys[i];
        values_out[ranks[i]] = values[i];
      }
    }
  }
}

/// The block of the tile whose kept items are flagged: scans the flags,
/// looks back (waiting as Delay says), compacts items (and values, when V
/// is not void) to d_out + prefix, and has the last tile write the total to
/// d_count[0].
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Delay = DefaultDelay>
struct Compactor
{
  using TileT = Tile<BLOCK_THREADS, ITEMS_PER_THREAD>;
  using BlockScanT = cub::BlockScan<int, BLOCK_THREADS, cub::BLOCK_SCAN_WARP_SCANS>;
  using LookBackT = LookBack<long long, SumOp, Delay>;

  struct ScanStorage
  {
    typename BlockScanT::TempStorage scan;
    typename LookBackT::TempStorage look_back;
  };

  /// Ranks of the flagged items within the tile; returns the tile's prefix
  /// (items kept by earlier tiles) and sets kept to this tile's count.
  static GOCCCL_DEVICE long long rank(ScanStorage& temp, const States& states, const TileT& tile,
                                      int (&flags)[ITEMS_PER_THREAD], int (&ranks)[ITEMS_PER_THREAD], int& kept)
  {
    BlockScanT(temp.scan).ExclusiveSum(flags, ranks, kept);
    return LookBackT::exclusive(temp.look_back, states, tile.index, static_cast<long long>(kept), 0LL);
  }

  /// As rank, but the block scans one count a thread and each thread ranks
  /// its items only after the look-back (as CUB's BlockScan does around its
  /// prefix callback). Which of the two keeps fewer registers across the
  /// look-back is ptxas's choice, measured (CUDA 13, sm_90, 384 x 17, 4-byte
  /// items): a partition, which stages every item by its flag and rank,
  /// takes 56 with rank_after and 74 with rank (ptxas holds both arrays);
  /// select and unique take 56 with rank (ptxas holds the ranks and
  /// recomputes the flags from the items) and 76 / 56 with rank_after.
  static GOCCCL_DEVICE long long rank_after(ScanStorage& temp, const States& states, const TileT& tile,
                                            const int (&flags)[ITEMS_PER_THREAD], int (&ranks)[ITEMS_PER_THREAD],
                                            int& kept)
  {
    int count = 0;
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      count += flags[i];
    }
    int before;
    BlockScanT(temp.scan).ExclusiveSum(count, before, kept);
    const long long prefix =
      LookBackT::exclusive(temp.look_back, states, tile.index, static_cast<long long>(kept), 0LL);
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      ranks[i] = before;
      before += flags[i];
    }
    return prefix;
  }

  /// The last tile's block writes the total to d_count[0].
  template <bool LAST, typename CountIt>
  static GOCCCL_DEVICE void count(CountIt d_count, long long total)
  {
    if (LAST && threadIdx.x == 0)
    {
      d_count[0] = total;
    }
  }
};

} // namespace select
} // namespace detail

/**
 * \brief The init kernel of select, partition, unique and unique_by_key (one
 * count carried between tiles, long long). With tiles == 0 writes
 * d_count[0] = 0 and touches no state; otherwise initializes the epoch
 * region d_state (the host launches it once per region, not per call, and
 * not at all for a single tile).
 *
 * \param d_state      the epoch region, state_bytes bytes, 16-byte aligned; unused when tiles == 0
 * \param state_bytes  at least EpochTileState<long long>::AllocationSize(tiles); traps otherwise
 * \param tiles        tiles of the sweep the region serves (0: n == 0)
 * \param d_count      the counts, written only when tiles == 0
 *
 * Launch: any grid (grid-stride over the region's state_bytes / 8 words).
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename... Ts, typename CountIt>
__device__ void select_init(void* d_state, long long state_bytes, long long tiles, CountIt d_count)
{
  detail::select::init<long long, 1>(d_state, state_bytes, tiles, d_count);
}

/**
 * \brief The init kernel of the run-length encodings (a count and a position
 * carried between tiles): as select_init, with the size checked for the
 * carry the encodings pick for tiles tiles (PackedCountPos below 2^32
 * items, else WideCountPos). With tiles == 0 writes zero to d_count[0].
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename... Ts, typename CountIt>
__device__ void select_init_pair(void* d_state, long long state_bytes, long long tiles, CountIt d_count)
{
  namespace s = detail::select;
  if (s::packs_counts<BLOCK_THREADS * ITEMS_PER_THREAD>(tiles))
  {
    s::init<s::PackedCountPos::S, 1>(d_state, state_bytes, tiles, d_count);
  }
  else
  {
    s::init<s::WideCountPos::S, 1>(d_state, state_bytes, tiles, d_count);
  }
}

/**
 * \brief Three-way partition's init kernel: as select_init_pair, with two
 * counts, the size checked for the carry three_way_partition picks for
 * tiles tiles (PackedCounts below 2^32 items, else WideCounts). With
 * tiles == 0 writes zeros to d_count[0] and d_count[1].
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename... Ts, typename CountIt>
__device__ void select_init_pair2(void* d_state, long long state_bytes, long long tiles, CountIt d_count)
{
  namespace s = detail::select;
  if (s::packs_counts<BLOCK_THREADS * ITEMS_PER_THREAD>(tiles))
  {
    s::init<s::PackedCounts::S, 2>(d_state, state_bytes, tiles, d_count);
  }
  else
  {
    s::init<s::WideCounts::S, 2>(d_state, state_bytes, tiles, d_count);
  }
}

/**
 * \brief Select: copies the items of d_in[0:n] for which Pred holds, in
 * order, to d_out, and writes their number to d_count[0]. Delay is the
 * look-back's waits (look_back.cuh), a tag; DefaultDelay when left out.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Pred, typename InputIt, typename OutputIt,
          typename CountIt, typename Delay = DefaultDelay>
__device__ void select_if(InputIt d_in, OutputIt d_out, CountIt d_count, long long n, void* d_state,
                          long long state_bytes, unsigned epoch, Delay = Delay())
{
  namespace s = detail::select;
  using TileT = s::Tile<BLOCK_THREADS, ITEMS_PER_THREAD>;
  using C = s::Compactor<BLOCK_THREADS, ITEMS_PER_THREAD, T, Delay>;
  using LoaderT = s::Loader<BLOCK_THREADS, ITEMS_PER_THREAD, T>;
  __shared__ union {
    typename LoaderT::TempStorage load;
    typename C::ScanStorage scan;
    s::Staging<T, TileT::ITEMS> staging;
  } temp;

  const TileT tile(n);
  const s::States states{d_state, state_bytes, epoch};
  s::by_tile([&](auto last) {
    constexpr bool LAST = decltype(last)::value;
    T items[ITEMS_PER_THREAD];
    LoaderT::template load<!LAST>(temp.load, d_in, tile, items);

    Pred pred;
    int flags[ITEMS_PER_THREAD], ranks[ITEMS_PER_THREAD];
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      flags[i] = (!LAST || TileT::at(i) < tile.valid) && pred(items[i]);
    }
    __syncthreads(); // load storage is reused by the scan
    int kept;
    const long long prefix = C::rank(temp.scan, states, tile, flags, ranks, kept);
    s::compact<BLOCK_THREADS, ITEMS_PER_THREAD>(temp.staging, items, flags, ranks, kept, d_out + prefix);
    C::template count<LAST>(d_count, prefix + kept);
  });
}

/**
 * \brief Partition: copies the items of d_in[0:n] for which Pred holds, in
 * order, to d_out[0:k], and the others in reverse order to d_out[k:n]
 * (as cub::DevicePartition::If); writes k to d_count[0]. Delay: as
 * select_if's.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Pred, typename InputIt, typename OutputIt,
          typename CountIt, typename Delay = DefaultDelay>
__device__ void partition_if(InputIt d_in, OutputIt d_out, CountIt d_count, long long n, void* d_state,
                             long long state_bytes, unsigned epoch, Delay = Delay())
{
  namespace s = detail::select;
  using TileT = s::Tile<BLOCK_THREADS, ITEMS_PER_THREAD>;
  using C = s::Compactor<BLOCK_THREADS, ITEMS_PER_THREAD, T, Delay>;
  using LoaderT = s::Loader<BLOCK_THREADS, ITEMS_PER_THREAD, T>;
  __shared__ union {
    typename LoaderT::TempStorage load;
    typename C::ScanStorage scan;
    s::Staging<T, TileT::ITEMS> staging;
  } temp;

  const TileT tile(n);
  const s::States states{d_state, state_bytes, epoch};
  s::by_tile([&](auto last) {
    constexpr bool LAST = decltype(last)::value;
    T items[ITEMS_PER_THREAD];
    LoaderT::template load<!LAST>(temp.load, d_in, tile, items);

    Pred pred;
    int flags[ITEMS_PER_THREAD], ranks[ITEMS_PER_THREAD];
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      flags[i] = (!LAST || TileT::at(i) < tile.valid) && pred(items[i]);
    }
    __syncthreads();
    int kept;
    const long long selected_before = C::rank_after(temp.scan, states, tile, flags, ranks, kept);
    const long long rejected_before = tile.base - selected_before;

    // Stage selected items first, then the rejected ones, both in order.
    T* st = temp.staging.items();
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int at = TileT::at(i);
      if (!LAST || at < tile.valid)
      {
        st[flags[i] ? ranks[i] : kept + (at - ranks[i])] = items[i];
      }
    }
    __syncthreads();
    const int valid = LAST ? tile.valid : TileT::ITEMS;
    for (int k = threadIdx.x; k < valid; k += BLOCK_THREADS)
    {
      const long long to = k < kept ? selected_before + k : n - 1 - (rejected_before + (k - kept));
      d_out[to] = st[k];
    }
    C::template count<LAST>(d_count, selected_before + kept);
  });
}

/**
 * \brief Unique: copies the first item of every run of items equal under Eq
 * (eq(previous, next)) in d_in[0:n] to d_out, and writes their number to
 * d_count[0]. Delay: as select_if's.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Eq, typename InputIt, typename OutputIt,
          typename CountIt, typename Delay = DefaultDelay>
__device__ void unique(InputIt d_in, OutputIt d_out, CountIt d_count, long long n, void* d_state, long long state_bytes,
                       unsigned epoch, Delay = Delay())
{
  namespace s = detail::select;
  using TileT = s::Tile<BLOCK_THREADS, ITEMS_PER_THREAD>;
  using C = s::Compactor<BLOCK_THREADS, ITEMS_PER_THREAD, T, Delay>;
  using LoaderT = s::Loader<BLOCK_THREADS, ITEMS_PER_THREAD, T>;
  using HeadsT = cub::BlockDiscontinuity<T, BLOCK_THREADS>;
  __shared__ union {
    typename LoaderT::TempStorage load;
    typename HeadsT::TempStorage heads;
    typename C::ScanStorage scan;
    s::Staging<T, TileT::ITEMS> staging;
  } temp;

  const TileT tile(n);
  const s::States states{d_state, state_bytes, epoch};
  s::by_tile([&](auto last) {
    constexpr bool LAST = decltype(last)::value;
    T items[ITEMS_PER_THREAD];
    LoaderT::template load<!LAST>(temp.load, d_in, tile, items);
    __syncthreads();

    int flags[ITEMS_PER_THREAD], ranks[ITEMS_PER_THREAD];
    s::flag_run_heads<LAST, BLOCK_THREADS, ITEMS_PER_THREAD, Eq>(temp.heads, tile, d_in, items, flags);
    __syncthreads();
    int kept;
    const long long prefix = C::rank(temp.scan, states, tile, flags, ranks, kept);
    s::compact<BLOCK_THREADS, ITEMS_PER_THREAD>(temp.staging, items, flags, ranks, kept, d_out + prefix);
    C::template count<LAST>(d_count, prefix + kept);
  });
}

/**
 * \brief UniqueByKey: for every run of keys equal under Eq in d_keys[0:n],
 * copies its first key to d_keys_out and the value at the same position to
 * d_values_out, and writes the number of runs to d_count[0]. Delay: as
 * select_if's.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, typename Eq, typename KeyIt,
          typename ValueIt, typename KeyOutIt, typename ValueOutIt, typename CountIt, typename Delay = DefaultDelay>
__device__ void unique_by_key(KeyIt d_keys, ValueIt d_values, KeyOutIt d_keys_out, ValueOutIt d_values_out,
                              CountIt d_count, long long n, void* d_state, long long state_bytes, unsigned epoch,
                              Delay = Delay())
{
  namespace s = detail::select;
  using TileT = s::Tile<BLOCK_THREADS, ITEMS_PER_THREAD>;
  using C = s::Compactor<BLOCK_THREADS, ITEMS_PER_THREAD, K, Delay>;
  using KeyLoader = s::Loader<BLOCK_THREADS, ITEMS_PER_THREAD, K>;
  using ValueLoader = s::Loader<BLOCK_THREADS, ITEMS_PER_THREAD, V>;
  using HeadsT = cub::BlockDiscontinuity<K, BLOCK_THREADS>;
  __shared__ union {
    typename KeyLoader::TempStorage keys;
    typename ValueLoader::TempStorage values;
    typename HeadsT::TempStorage heads;
    typename C::ScanStorage scan;
    s::Staging<K, TileT::ITEMS> staged_keys;
    s::Staging<V, TileT::ITEMS> staged_values;
  } temp;

  const TileT tile(n);
  const s::States states{d_state, state_bytes, epoch};
  s::by_tile([&](auto last) {
    constexpr bool LAST = decltype(last)::value;
    K keys[ITEMS_PER_THREAD];
    V values[ITEMS_PER_THREAD];
    KeyLoader::template load<!LAST>(temp.keys, d_keys, tile, keys);
    __syncthreads();
    ValueLoader::template load<!LAST>(temp.values, d_values, tile, values);
    __syncthreads();

    int flags[ITEMS_PER_THREAD], ranks[ITEMS_PER_THREAD];
    s::flag_run_heads<LAST, BLOCK_THREADS, ITEMS_PER_THREAD, Eq>(temp.heads, tile, d_keys, keys, flags);
    __syncthreads();
    int kept;
    const long long prefix = C::rank(temp.scan, states, tile, flags, ranks, kept);
    s::compact<BLOCK_THREADS, ITEMS_PER_THREAD>(temp.staged_keys, temp.staged_values, keys, values, flags, ranks, kept,
                                                d_keys_out + prefix, d_values_out + prefix);
    C::template count<LAST>(d_count, prefix + kept);
  });
}

namespace detail {
namespace select {

/// The block of one tile of a three-way partition, whose look-back waits
/// as Delay says.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Delay = DefaultDelay>
struct ThreeWay
{
  using TileT = Tile<BLOCK_THREADS, ITEMS_PER_THREAD>;
  using LoaderT = Loader<BLOCK_THREADS, ITEMS_PER_THREAD, T>;
  using P = Pair<int>;
  using BlockScanT = cub::BlockScan<P, BLOCK_THREADS, cub::BLOCK_SCAN_WARP_SCANS>;
  using PackedLookBack = LookBack<PackedCounts::S, PackedCounts::Op, Delay>;
  using WideLookBack = LookBack<WideCounts::S, WideCounts::Op, Delay>;

  union TempStorage
  {
    typename LoaderT::TempStorage load;
    struct
    {
      typename BlockScanT::TempStorage scan;
      union
      {
        typename PackedLookBack::TempStorage packed;
        typename WideLookBack::TempStorage wide;
      } look_back;
    } scan;
    Staging<T, TileT::ITEMS> staging;
  };

  static GOCCCL_DEVICE typename PackedLookBack::TempStorage& look_back(TempStorage& temp, PackedCounts)
  {
    return temp.scan.look_back.packed;
  }
  static GOCCCL_DEVICE typename WideLookBack::TempStorage& look_back(TempStorage& temp, WideCounts)
  {
    return temp.scan.look_back.wide;
  }

  template <typename Counts, typename First, typename Second, typename InputIt, typename FirstIt, typename SecondIt,
            typename UnselectedIt, typename CountIt>
  static GOCCCL_DEVICE void run(TempStorage& temp, InputIt d_in, FirstIt d_first, SecondIt d_second,
                                UnselectedIt d_unselected, CountIt d_count, long long n, void* d_state,
                                long long state_bytes, unsigned epoch)
  {
    using LookBackT = LookBack<typename Counts::S, typename Counts::Op, Delay>;
    const TileT tile(n);
    const States states{d_state, state_bytes, epoch};
    T items[ITEMS_PER_THREAD];
    LoaderT::load(temp.load, d_in, tile, items);

    First first;
    Second second;
    P flags[ITEMS_PER_THREAD], ranks[ITEMS_PER_THREAD];
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const bool valid = TileT::at(i) < tile.valid;
      const bool one = valid && first(items[i]);
      const bool two = valid && !one && second(items[i]);
      flags[i] = P{one ? 1 : 0, two ? 1 : 0};
    }
    __syncthreads();
    P kept;
    BlockScanT(temp.scan.scan).ExclusiveScan(flags, ranks, P{0, 0}, SumSumOp(), kept);
    const typename Counts::S prefix = LookBackT::exclusive(look_back(temp, Counts()), states, tile.index,
                                                           Counts::make(kept.a, kept.b), Counts::make(0, 0));
    const long long before_a = Counts::first(prefix), before_b = Counts::second(prefix);
    const long long unselected_before = tile.base - before_a - before_b;

    // Stage part 1, part 2, then the unselected items, each in order.
    T* st = temp.staging.items();
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int at = TileT::at(i);
      if (at < tile.valid)
      {
        const int to = flags[i].a ? ranks[i].a
                     : flags[i].b ? kept.a + ranks[i].b
                                  : kept.a + kept.b + (at - ranks[i].a - ranks[i].b);
        st[to] = items[i];
      }
    }
    __syncthreads();
    for (int k = threadIdx.x; k < tile.valid; k += BLOCK_THREADS)
    {
      if (k < kept.a)
      {
        d_first[before_a + k] = st[k];
      }
      else if (k < kept.a + kept.b)
      {
        d_second[before_b + (k - kept.a)] = st[k];
      }
      else
      {
        d_unselected[unselected_before + (k - kept.a - kept.b)] = st[k];
      }
    }
    if (tile.last && threadIdx.x == 0)
    {
      d_count[0] = before_a + kept.a;
      d_count[1] = before_b + kept.b;
    }
  }
};

} // namespace select
} // namespace detail

/**
 * \brief ThreeWayPartition: copies the items of d_in[0:n] for which First
 * holds to d_first, of the others those for which Second holds to d_second,
 * and the rest to d_unselected, each in order (as
 * cub::DevicePartition::If with two operators); writes the sizes of the
 * first two parts to d_count[0] and d_count[1]. The tiles carry both counts
 * in one packed word when they hold fewer than 2^32 items (the carry
 * select_init_pair2 checked the region's size for), else as a pair.
 * Delay: as select_if's.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename First, typename Second, typename InputIt,
          typename FirstIt, typename SecondIt, typename UnselectedIt, typename CountIt, typename Delay = DefaultDelay>
__device__ void three_way_partition(InputIt d_in, FirstIt d_first, SecondIt d_second, UnselectedIt d_unselected,
                                    CountIt d_count, long long n, void* d_state, long long state_bytes,
                                    unsigned epoch, Delay = Delay())
{
  namespace s = detail::select;
  using Agent = s::ThreeWay<BLOCK_THREADS, ITEMS_PER_THREAD, T, Delay>;
  __shared__ typename Agent::TempStorage temp;
  if (s::packs_counts<BLOCK_THREADS * ITEMS_PER_THREAD>(gridDim.x))
  {
    Agent::template run<s::PackedCounts, First, Second>(temp, d_in, d_first, d_second, d_unselected, d_count, n,
                                                        d_state, state_bytes, epoch);
  }
  else
  {
    Agent::template run<s::WideCounts, First, Second>(temp, d_in, d_first, d_second, d_unselected, d_count, n, d_state,
                                                      state_bytes, epoch);
  }
}

namespace detail {
namespace select {

/// Flags the heads and tails of runs in a tile of a run-length encoding:
/// items past the end are neither, the input's last item is a tail.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Eq, typename InputIt>
GOCCCL_DEVICE void flag_runs(typename cub::BlockDiscontinuity<T, BLOCK_THREADS>::TempStorage& temp, InputIt d_in,
                             const Tile<BLOCK_THREADS, ITEMS_PER_THREAD>& tile, const T (&items)[ITEMS_PER_THREAD],
                             int (&heads)[ITEMS_PER_THREAD], int (&tails)[ITEMS_PER_THREAD])
{
  using D = cub::BlockDiscontinuity<T, BLOCK_THREADS>;
  T local[ITEMS_PER_THREAD];
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    local[i] = items[i];
  }
  // The last tile's final item is a tail whatever follows it in the tile
  // (the repeated fill), so it needs no successor.
  if (tile.index == 0)
  {
    if (tile.last)
    {
      D(temp).FlagHeadsAndTails(heads, tails, local, NotEqual<Eq>());
    }
    else
    {
      const T successor = d_in[tile.base + Tile<BLOCK_THREADS, ITEMS_PER_THREAD>::ITEMS];
      D(temp).FlagHeadsAndTails(heads, tails, successor, local, NotEqual<Eq>());
    }
  }
  else
  {
    const T predecessor = d_in[tile.base - 1];
    if (tile.last)
    {
      D(temp).FlagHeadsAndTails(heads, predecessor, tails, local, NotEqual<Eq>());
    }
    else
    {
      const T successor = d_in[tile.base + Tile<BLOCK_THREADS, ITEMS_PER_THREAD>::ITEMS];
      D(temp).FlagHeadsAndTails(heads, predecessor, tails, successor, local, NotEqual<Eq>());
    }
  }
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int at = Tile<BLOCK_THREADS, ITEMS_PER_THREAD>::at(i);
    heads[i] = heads[i] && at < tile.valid;
    tails[i] = (tails[i] && at < tile.valid) || at == tile.valid - 1 && tile.last;
  }
}

/// The shared memory of a run-length encoding's look-back, either carry.
template <typename Delay = DefaultDelay>
union RunLookBackStorage
{
  typename LookBack<PackedCountPos::S, PackedCountPos::Op, Delay>::TempStorage packed;
  typename LookBack<WideCountPos::S, WideCountPos::Op, Delay>::TempStorage wide;
};

/// Returns, in every thread, the carry of all the tiles before this one
/// (count, position of the last head) and publishes this tile's: its count
/// agg.a and its last head agg.b within the tile (-1: none). The tiles carry
/// it packed when they hold fewer than 2^32 items (the carry
/// select_init_pair checked the region's size for), else as a pair.
template <int TILE, typename Delay = DefaultDelay>
GOCCCL_DEVICE Pair<long long> run_prefix(RunLookBackStorage<Delay>& temp, void* d_state, long long state_bytes,
                                         unsigned epoch, int tile_index, long long tile_base, Pair<int> agg)
{
  const long long pos = agg.b < 0 ? -1 : tile_base + agg.b;
  if (packs_counts<TILE>(gridDim.x))
  {
    using C = PackedCountPos;
    using LB = LookBack<C::S, C::Op, Delay>;
    return C::unpack(LB::exclusive(temp.packed, States{d_state, state_bytes, epoch}, tile_index, C::make(agg.a, pos),
                                   C::make(0, -1)));
  }
  using C = WideCountPos;
  using LB = LookBack<C::S, C::Op, Delay>;
  return C::unpack(
    LB::exclusive(temp.wide, States{d_state, state_bytes, epoch}, tile_index, C::make(agg.a, pos), C::make(0, -1)));
}

} // namespace select
} // namespace detail

/**
 * \brief RunLengthEncode: for every run of items equal under Eq in
 * d_in[0:n], writes its first item to d_unique and its length to d_lengths;
 * writes the number of runs to d_count[0].
 *
 * The scan carries (heads so far, position of the last head), and only
 * heads write: the head of run r writes run r's item at index r and run
 * r - 1's length, the distance between the two heads; the last tile writes
 * the last run's (n minus its head). So, as in CUB's Encode, which takes
 * each length from the next head's exclusive prefix, no tile flags tails or
 * loads the item after it. Delay is the look-back's waits (look_back.cuh).
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Eq, typename InputIt, typename UniqueIt,
          typename LengthIt, typename CountIt, typename Delay = DefaultDelay>
__device__ void rle_encode(InputIt d_in, UniqueIt d_unique, LengthIt d_lengths, CountIt d_count, long long n,
                                 void* d_state, long long state_bytes, unsigned epoch, Delay = Delay())
{
  namespace s = detail::select;
  static_assert(ITEMS_PER_THREAD <= 32, "gocccl::rle_encode: a thread's head flags are the bits of one word");
  using TileT = s::Tile<BLOCK_THREADS, ITEMS_PER_THREAD>;
  using LoaderT = s::Loader<BLOCK_THREADS, ITEMS_PER_THREAD, T>;
  using P = s::Pair<int>;
  using BlockScanT = cub::BlockScan<P, BLOCK_THREADS, cub::BLOCK_SCAN_WARP_SCANS>;
  using HeadsT = cub::BlockDiscontinuity<T, BLOCK_THREADS>;
  __shared__ union {
    typename LoaderT::TempStorage load;
    typename HeadsT::TempStorage heads;
    struct
    {
      typename BlockScanT::TempStorage scan;
      s::RunLookBackStorage<Delay> look_back;
    } scan;
    s::Staging<T, TileT::ITEMS> uniques;
    s::Staging<long long, TileT::ITEMS> lengths;
  } temp;

  const TileT tile(n);
  T items[ITEMS_PER_THREAD];
  LoaderT::load(temp.load, d_in, tile, items);
  __syncthreads();
  int heads[ITEMS_PER_THREAD];
  if (tile.index == 0)
  {
    HeadsT(temp.heads).FlagHeads(heads, items, s::NotEqual<Eq>());
  }
  else
  {
    HeadsT(temp.heads).FlagHeads(heads, items, s::NotEqual<Eq>(), d_in[tile.base - 1]);
  }
  __syncthreads();

  // The scan runs in place, and the head flags shrink to one bit each,
  // so that few registers hold a thread's items.
  P excl[ITEMS_PER_THREAD], agg;
  unsigned head_bits = 0;
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const bool head = heads[i] && TileT::at(i) < tile.valid; // the fill past the end heads nothing
    head_bits |= static_cast<unsigned>(head) << i;
    excl[i] = P{head, head ? TileT::at(i) : -1};
  }
  BlockScanT(temp.scan.scan).ExclusiveScan(excl, excl, P{0, -1}, s::SumMaxOp(), agg);
  const s::Pair<long long> before =
    s::run_prefix<TileT::ITEMS, Delay>(temp.scan.look_back, d_state, state_bytes, epoch, tile.index, tile.base, agg);

  // The head of run r = before.a + excl[i].a writes run r's item and run
  // r - 1's length: its position minus the previous head's, which is in
  // this tile (excl[i].b) or an earlier one (before.b).
  if (ITEMS_PER_THREAD > 1 && agg.a > BLOCK_THREADS)
  {
    T* uniques = temp.uniques.items();
    long long* lengths = temp.lengths.items();
    __syncthreads(); // the look-back's shared memory is read
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      if (head_bits >> i & 1u)
      {
        uniques[excl[i].a] = items[i];
      }
    }
    __syncthreads();
    for (int j = threadIdx.x; j < agg.a; j += BLOCK_THREADS)
    {
      d_unique[before.a + j] = uniques[j];
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      if (head_bits >> i & 1u)
      {
        const int at = TileT::at(i);
        lengths[excl[i].a] = excl[i].b >= 0 ? at - excl[i].b : tile.base + at - before.b;
      }
    }
    __syncthreads();
    for (int j = threadIdx.x; j < agg.a; j += BLOCK_THREADS)
    {
      const long long r = before.a + j;
      if (r > 0)
      {
        d_lengths[r - 1] = lengths[j];
      }
    }
  }
  else
  {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      if (head_bits >> i & 1u)
      {
        const long long r = before.a + excl[i].a;
        const long long at = tile.base + TileT::at(i);
        d_unique[r] = items[i];
        if (r > 0)
        {
          d_lengths[r - 1] = at - (excl[i].b >= 0 ? tile.base + excl[i].b : before.b);
        }
      }
    }
  }
  if (tile.last && threadIdx.x == 0)
  {
    const long long runs = before.a + agg.a; // >= 1: n >= 1
    const long long last_head = agg.b >= 0 ? tile.base + agg.b : before.b;
    d_lengths[runs - 1] = n - last_head;
    d_count[0] = runs;
  }
}

/**
 * \brief RunLengthEncode, non-trivial runs: for every run of more than one
 * item equal under Eq in d_in[0:n], writes the position of its first item
 * to d_offsets and its length to d_lengths; writes their number to
 * d_count[0] (as cub::DeviceRunLengthEncode::NonTrivialRuns).
 *
 * A run is non-trivial iff its tail is not also its head, so the scan
 * carries (non-trivial tails so far, position of the last head).
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Eq, typename InputIt, typename OffsetIt,
          typename LengthIt, typename CountIt>
__device__ void rle_non_trivial(InputIt d_in, OffsetIt d_offsets, LengthIt d_lengths, CountIt d_count, long long n,
                                void* d_state, long long state_bytes, unsigned epoch)
{
  namespace s = detail::select;
  using TileT = s::Tile<BLOCK_THREADS, ITEMS_PER_THREAD>;
  using LoaderT = s::Loader<BLOCK_THREADS, ITEMS_PER_THREAD, T>;
  using P = s::Pair<int>;
  using BlockScanT = cub::BlockScan<P, BLOCK_THREADS, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ union {
    typename LoaderT::TempStorage load;
    typename cub::BlockDiscontinuity<T, BLOCK_THREADS>::TempStorage runs;
    struct
    {
      typename BlockScanT::TempStorage scan;
      s::RunLookBackStorage<> look_back;
    } scan;
  } temp;

  const TileT tile(n);
  T items[ITEMS_PER_THREAD];
  LoaderT::load(temp.load, d_in, tile, items);
  __syncthreads();
  int heads[ITEMS_PER_THREAD], tails[ITEMS_PER_THREAD];
  s::flag_runs<BLOCK_THREADS, ITEMS_PER_THREAD, T, Eq>(temp.runs, d_in, tile, items, heads, tails);
  __syncthreads();

  P in[ITEMS_PER_THREAD], excl[ITEMS_PER_THREAD], agg;
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    in[i] = P{tails[i] && !heads[i] ? 1 : 0, heads[i] ? TileT::at(i) : -1};
  }
  BlockScanT(temp.scan.scan).ExclusiveScan(in, excl, P{0, -1}, s::SumMaxOp(), agg);
  const s::Pair<long long> before =
    s::run_prefix<TileT::ITEMS>(temp.scan.look_back, d_state, state_bytes, epoch, tile.index, tile.base, agg);

#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    if (tails[i] && !heads[i])
    {
      const long long k = before.a + excl[i].a;
      const long long at = tile.base + TileT::at(i);
      const long long head = excl[i].b >= 0 ? tile.base + excl[i].b : before.b;
      d_offsets[k] = head;
      d_lengths[k] = at - head + 1;
    }
  }
  if (tile.last && threadIdx.x == 0)
  {
    d_count[0] = before.a + agg.a;
  }
}

} // namespace gocccl
