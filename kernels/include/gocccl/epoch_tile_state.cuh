/*
 * gocccl/epoch_tile_state.cuh: decoupled look-back tile states that never
 * need resetting between calls (PROTOTYPE: no generated package includes
 * this header yet; bench/cub/tune/scan_epoch_tune.cu measures it).
 *
 * Why. Every decoupled look-back algorithm launches an init kernel that marks
 * every tile state invalid (cub::ScanTileState::InitializeStatus) before its
 * single-pass kernel: two launches per call, as CUB. Our tile states live in
 * the stream's scratch, which persists across calls (runtime/scratch.go), so
 * the state a tile finds from the previous call only needs to be *told
 * apart* from the current call's, not erased. Here every status carries the
 * number of the call that wrote it (its epoch, a kernel argument the host
 * increments per call on that scratch); a state of another epoch reads as
 * "not yet published", exactly as CUB's SCAN_TILE_INVALID. One launch per
 * call; the init kernel runs once per scratch (see "Host protocol").
 *
 * ---------------------------------------------------------------------------
 * Word format (4-byte and smaller values; CUB's ScanTileState<T, true>):
 *
 *   one 64-bit word per tile, written and read with single 64-bit accesses
 *   (st/ld.relaxed.gpu.u64 on sm_70+, .volatile before):
 *
 *     bits  0..1   kind   0 NONE       written only by the init kernel
 *                         1 PARTIAL    the tile's aggregate
 *                         2 INCLUSIVE  the inclusive prefix through the tile
 *                         3 OOB        the padding before tile 0
 *     bits  2..31  epoch  1 .. EPOCH_MAX (2^30 - 1); 0 only from the init
 *     bits 32..63  value  the T's bytes (zero-extended below 4 bytes)
 *
 *   The low half is CUB's TileDescriptor::status, the high half its value
 *   (little-endian, as CUB's struct { status; value; } aliased to uint2).
 *
 * Layout: EPOCH_TILE_PADDING (32) words, then one word per tile: tile t's
 * word is d_words[32 + t]. AllocationSize(tiles) = (32 + tiles) * 8 bytes;
 * a region of B bytes holds capacity(B) = B / 8 - 32 tiles.
 *
 * Reading a word with the current call's epoch E (tag = E << 2):
 *
 *   ready      kind == OOB, or epoch == E       ((s ^ tag) < 4 || (s & 3) == 3)
 *   inclusive  s == tag | INCLUSIVE
 *
 * Anything else (NONE, or PARTIAL / INCLUSIVE of another epoch: a stale
 * state of an earlier call) is "not ready" and the look-back waits on it, as
 * on CUB's SCAN_TILE_INVALID. Tiles only ever write PARTIAL or INCLUSIVE
 * with the current epoch, so the OOB padding words, written once by the
 * init kernel, read as OOB for every epoch and are never overwritten (tiles
 * write d_words[32 + t], t >= 0). As in CUB, an OOB word is ready but not
 * inclusive; the window's segmented reduction never reaches it, because
 * tile 0 always publishes INCLUSIVE and lies between any reader and the
 * padding. Its value is never used.
 *
 * Why a stale word is never taken for a current one. Within one scratch the
 * host issues epochs 1, 2, 3, ... (one per multi-tile call, strictly
 * increasing), after an init that wrote epoch 0 (NONE) into every tile word
 * of the region's capacity. Calls on one stream run one after another, and
 * a kernel's stores are all performed and visible before the next kernel on
 * the stream starts. So when call E starts, every tile word holds epoch 0 or
 * the epoch of some earlier call (< E), and during call E the only writer of
 * tile t's word with epoch E is tile t of call E itself. A word therefore
 * reads "epoch E" only once this call's tile published it. The host
 * re-initializes (and restarts at epoch 1) before the counter would pass
 * EPOCH_MAX: without that, a word left by the call of the same epoch number
 * 2^30 calls earlier (at a tile no shorter call has overwritten since) would
 * read as current. Epoch 0 is never issued, so a word that was initialized
 * and never published can never match. (What the argument needs is only
 * that the epochs issued since the last init are distinct and nonzero, and
 * that the init runs before them in stream order; increasing is the cheap
 * way to be distinct.) Two calls must never run at once on one region: one
 * could overwrite a word the other already published, and the other's
 * readers would then wait for ever. Per-stream scratch rules that out.
 *
 * Memory ordering: within a call exactly CUB's packed form. A tile publishes
 * with one 64-bit store of the whole word (status and value together):
 * PARTIAL first, then INCLUSIVE, both by thread 0 of the tile's block, so the
 * inclusive store follows the partial store in the word's coherence order. A
 * reader loads the whole word with one 64-bit load: 8-byte aligned
 * accesses are single-copy atomic, so it sees status and value from one and
 * the same store, never a new status with an old value, and no fence is
 * needed (CUB's ScanTileState<T, true> has none either; CUB's three-array
 * form needs __threadfence() between the value's store and the status's,
 * and between the status's load and the value's: see below). The loads and
 * stores are relaxed at GPU scope (strong, L1-bypassing), as CUB's
 * detail::load_relaxed / store_relaxed, with CUB's delays between re-reads.
 *
 * 8-byte values (not in this prototype). Two ways, both keeping the epoch:
 *  (a) CUB's three-array form: a 32-bit status array (epoch << 2 | kind)
 *      and separate partial / inclusive value arrays; publish = store the
 *      value, __threadfence(), store the status; read = load the status,
 *      __threadfence(), load the value from the array the kind names. The
 *      value arrays need no init at all: only the status decides.
 *  (b) Fence-free, preferred: two 64-bit words per tile, each
 *      (epoch << 2 | kind, 32 bits of the value), written by two 64-bit
 *      stores (or one st.v2.u64) and read by two loads (or one ld.v2.u64,
 *      whose two halves are each atomic but not atomic together). A reader
 *      accepts the pair only when both words carry the current epoch and
 *      the same kind, else it waits. Each (tile, epoch, kind) is published
 *      exactly once with one value, so two words that agree on epoch and
 *      kind come from the same publication, whatever order the halves
 *      landed in. Every 8-byte word of the region keeps the same shape
 *      (status low, payload high), so 4-byte and 8-byte algorithms can share
 *      one region and one epoch counter (see the rollout note in
 *      scan_epoch.cuh). A 128-bit single-copy-atomic access (sm_90's
 *      ld/st.b128 under PTX 8.3+) would allow one word, but PTX does not
 *      promise the atomicity of vector accesses and .b128 needs CUDA 12.3+,
 *      so (b) is the portable choice.
 *
 * Host protocol (per region of scratch that holds epoch states):
 *  - epoch_tile_state_init (one launch over the whole capacity, padding
 *    included) when the region is new (first use, reallocated, grown),
 *    when anything else wrote its bytes since (CUB-format states, merge
 *    splits, a memset...), or when the next epoch would exceed EPOCH_MAX;
 *    then the next call uses epoch 1.
 *  - otherwise epoch = previous + 1, passed to the single-pass kernel.
 *  - single-tile calls read and write no state and need no epoch.
 *  - a CUDA graph must not capture a fixed epoch: a replay would find the
 *    words of its own earlier replay carrying the same epoch. Capture the
 *    two-launch form (init, then epoch 1) or read the epoch from device
 *    memory (scan_epoch.cuh's rollout note).
 *
 * Compiles with CUB 1.17 (CUDA 11.8) and CCCL 3.x (CUDA 13). With CUB older
 * than 2.2 the Delay tag is ignored and re-reads are separated by
 * __threadfence_block(), as CUB 1.17's look-back does.
 */
#pragma once

#include <gocccl/config.cuh>
#include <gocccl/look_back.cuh>

#include <cub/thread/thread_operators.cuh>
#include <cub/util_type.cuh>
#include <cub/warp/warp_reduce.cuh>

#include <string.h>
#include <type_traits>

namespace gocccl {

/// Kinds of an epoch tile word (its low two bits).
enum EpochTileKind : unsigned
{
  EPOCH_TILE_NONE      = 0, ///< initialized, never published (epoch 0)
  EPOCH_TILE_PARTIAL   = 1, ///< the tile's aggregate is available
  EPOCH_TILE_INCLUSIVE = 2, ///< the inclusive prefix through the tile is available
  EPOCH_TILE_OOB       = 3, ///< padding before tile 0
};

/// Largest epoch a call may use; the host re-initializes before passing it.
constexpr unsigned EPOCH_TILE_MAX = (1u << 30) - 1;
/// Padding words before tile 0 (a warp's look-back window, as CUB's).
constexpr int EPOCH_TILE_PADDING = 32;

namespace detail {

/// One 64-bit word, loaded / stored as a single relaxed GPU-scope access.
GOCCCL_DEVICE unsigned long long epoch_load_word(const unsigned long long* p)
{
  unsigned long long w;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(w) : "l"(p) : "memory");
#else
  asm volatile("ld.volatile.global.u64 %0, [%1];" : "=l"(w) : "l"(p) : "memory");
#endif
  return w;
}

GOCCCL_DEVICE void epoch_store_word(unsigned long long* p, unsigned long long w)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" : : "l"(p), "l"(w) : "memory");
#else
  asm volatile("st.volatile.global.u64 [%0], %1;" : : "l"(p), "l"(w) : "memory");
#endif
}

/// EpochDelay<Delay, T>: the look-back's waits for the tag Delay
/// (look_back.cuh). With CUB >= 2.2, CUB's delay constructor: constructing
/// it waits the L2 write latency, and each call's functor waits before a
/// re-read. Before that, CUB 1.17's behaviour: no first wait, a
/// __threadfence_block() before every re-read (keeps the load in the loop).
#if GOCCCL_HAS_DELAY_CONSTRUCTORS
template <typename Delay, typename T>
using EpochDelay = typename Delay::template constructor<T>;
#else
template <typename Delay, typename T>
struct EpochDelay
{
  struct delay_t
  {
    GOCCCL_DEVICE void operator()() { __threadfence_block(); }
  };
  GOCCCL_DEVICE EpochDelay(unsigned) {}
  GOCCCL_DEVICE delay_t operator()() { return delay_t(); }
};
#endif

} // namespace detail

/**
 * \brief Tile states of a decoupled look-back tagged with the call's epoch
 * (the header comment above says how they work), for values of at most 4
 * bytes. Device-side interface as cub::ScanTileState<T, true>'s.
 */
template <typename T>
struct EpochTileState
{
  static_assert(sizeof(T) <= 4, "gocccl::EpochTileState: values of at most 4 bytes (8-byte form: see header)");
  static_assert(std::is_trivially_copyable<T>::value, "gocccl::EpochTileState: T must be trivially copyable");

  using Word = unsigned long long;

  Word* d_words = nullptr; ///< padding words, then one word per tile
  unsigned tag  = 0;       ///< epoch << 2 of the current call

  /// Bytes of a region for num_tiles tiles.
  __host__ __device__ static constexpr size_t AllocationSize(long long num_tiles)
  {
    return static_cast<size_t>(EPOCH_TILE_PADDING + num_tiles) * sizeof(Word);
  }

  /// Tiles a region of `bytes` bytes holds (negative when it holds not even
  /// the padding).
  __host__ __device__ static constexpr long long Capacity(long long bytes)
  {
    return bytes / static_cast<long long>(sizeof(Word)) - EPOCH_TILE_PADDING;
  }

  /// Binds the region and the current call's epoch (1 .. EPOCH_TILE_MAX).
  GOCCCL_DEVICE void Init(void* d_region, unsigned epoch)
  {
    d_words = static_cast<Word*>(d_region);
    tag     = epoch << 2;
  }

  /// The init kernel's body: every thread of the grid writes words
  /// i = global thread index + k * grid threads of [0, PADDING + capacity):
  /// the padding OOB, the tiles NONE with epoch 0. Any grid size works.
  GOCCCL_DEVICE static void InitializeRegion(void* d_region, long long capacity)
  {
    Word* words         = static_cast<Word*>(d_region);
    const long long end = EPOCH_TILE_PADDING + capacity;
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < end; i += stride)
    {
      words[i] = i < EPOCH_TILE_PADDING ? Word(EPOCH_TILE_OOB) : Word(EPOCH_TILE_NONE);
    }
  }

  GOCCCL_DEVICE static Word pack(unsigned status, T value)
  {
    unsigned bits = 0;
    memcpy(&bits, &value, sizeof(T));
    return (static_cast<Word>(bits) << 32) | status;
  }

  GOCCCL_DEVICE static T value_of(Word w)
  {
    const unsigned bits = static_cast<unsigned>(w >> 32);
    T v;
    memcpy(&v, &bits, sizeof(T));
    return v;
  }

  /// Whether a word's status is ready for this call: OOB, or this epoch.
  GOCCCL_DEVICE bool ready(unsigned status) const
  {
    return (status ^ tag) < 4u || (status & 3u) == EPOCH_TILE_OOB;
  }

  /// Whether a word's status is this epoch's INCLUSIVE.
  GOCCCL_DEVICE bool inclusive(unsigned status) const { return status == (tag | EPOCH_TILE_INCLUSIVE); }

  /// Publishes tile tile_idx's inclusive prefix (one 64-bit store).
  GOCCCL_DEVICE void SetInclusive(int tile_idx, T tile_inclusive)
  {
    detail::epoch_store_word(d_words + EPOCH_TILE_PADDING + tile_idx, pack(tag | EPOCH_TILE_INCLUSIVE, tile_inclusive));
  }

  /// Publishes tile tile_idx's aggregate (one 64-bit store).
  GOCCCL_DEVICE void SetPartial(int tile_idx, T tile_partial)
  {
    detail::epoch_store_word(d_words + EPOCH_TILE_PADDING + tile_idx, pack(tag | EPOCH_TILE_PARTIAL, tile_partial));
  }

  /// Called by a whole warp (each lane its own tile_idx, >= -PADDING): waits
  /// until every lane's word is ready, as CUB's WaitForValid, and returns
  /// the lane's status and value. DelayT: the functor of a delay
  /// constructor (a call waits before each re-read).
  template <typename DelayT>
  GOCCCL_DEVICE void WaitForValid(int tile_idx, unsigned& status, T& value, DelayT delay)
  {
    const Word* p = d_words + EPOCH_TILE_PADDING + tile_idx;
    Word w        = detail::epoch_load_word(p);
    while (__any_sync(0xffffffffu, !ready(static_cast<unsigned>(w))))
    {
      delay();
      w = detail::epoch_load_word(p);
    }
    status = static_cast<unsigned>(w);
    value  = value_of(w);
  }
};

/**
 * \brief The block-scan prefix callback of a decoupled look-back over
 * EpochTileState (cub::TilePrefixCallbackOp with the epoch's readiness).
 * Called by the block's first warp with the tile's aggregate: publishes it
 * (PARTIAL), reduces the predecessors' windows of 32 back to the first
 * INCLUSIVE, publishes the tile's inclusive prefix and returns the tile's
 * exclusive prefix (valid in lane 0). tile_idx >= 1 (tile 0 publishes its
 * INCLUSIVE directly).
 *
 * \tparam Delay  a look_back.cuh tag (FixedDelay<...>, NoDelay<...>, DefaultDelay)
 */
template <typename T, typename ScanOp, typename Delay = DefaultDelay>
struct EpochTilePrefixCallbackOp
{
  using WarpReduceT       = cub::WarpReduce<T, 32>;
  using DelayConstructorT = detail::EpochDelay<Delay, T>;
  using StateT            = EpochTileState<T>;

  struct _TempStorage
  {
    typename WarpReduceT::TempStorage warp_reduce;
    T exclusive_prefix;
    T inclusive_prefix;
    T block_aggregate;
  };
  struct TempStorage : cub::Uninitialized<_TempStorage>
  {};

  _TempStorage& temp_storage;
  StateT& tile_status;
  ScanOp scan_op;
  int tile_idx;
  T exclusive_prefix;
  T inclusive_prefix;

  GOCCCL_DEVICE EpochTilePrefixCallbackOp(StateT& tile_status, TempStorage& temp_storage, ScanOp scan_op, int tile_idx)
      : temp_storage(temp_storage.Alias())
      , tile_status(tile_status)
      , scan_op(scan_op)
      , tile_idx(tile_idx)
  {}

  /// Waits for the window of 32 predecessors ending at predecessor_idx
  /// (lane i reads predecessor_idx for its own index) and reduces it from
  /// lane 0 back to the first INCLUSIVE (lane 0 holds the result).
  template <typename DelayT>
  GOCCCL_DEVICE void ProcessWindow(int predecessor_idx, bool& predecessor_inclusive, T& window_aggregate, DelayT delay)
  {
    unsigned status;
    T value;
    tile_status.WaitForValid(predecessor_idx, status, value, delay);
    predecessor_inclusive = tile_status.inclusive(status);
    window_aggregate      = WarpReduceT(temp_storage.warp_reduce)
                         .TailSegmentedReduce(value, int(predecessor_inclusive), cub::SwizzleScanOp<ScanOp>(scan_op));
  }

  GOCCCL_DEVICE T operator()(T block_aggregate)
  {
    if (threadIdx.x == 0)
    {
      temp_storage.block_aggregate = block_aggregate;
      tile_status.SetPartial(tile_idx, block_aggregate);
    }

    int predecessor_idx = tile_idx - static_cast<int>(threadIdx.x) - 1;
    bool predecessor_inclusive;
    T window_aggregate;

    DelayConstructorT construct_delay(static_cast<unsigned>(tile_idx));
    ProcessWindow(predecessor_idx, predecessor_inclusive, window_aggregate, construct_delay());
    exclusive_prefix = window_aggregate;

    while (__all_sync(0xffffffffu, !predecessor_inclusive))
    {
      predecessor_idx -= 32;
      ProcessWindow(predecessor_idx, predecessor_inclusive, window_aggregate, construct_delay());
      exclusive_prefix = scan_op(window_aggregate, exclusive_prefix);
    }

    if (threadIdx.x == 0)
    {
      inclusive_prefix = scan_op(exclusive_prefix, block_aggregate);
      tile_status.SetInclusive(tile_idx, inclusive_prefix);
      temp_storage.exclusive_prefix = exclusive_prefix;
      temp_storage.inclusive_prefix = inclusive_prefix;
    }
    return exclusive_prefix;
  }

  GOCCCL_DEVICE T GetExclusivePrefix() { return temp_storage.exclusive_prefix; }
  GOCCCL_DEVICE T GetInclusivePrefix() { return temp_storage.inclusive_prefix; }
  GOCCCL_DEVICE T GetBlockAggregate() { return temp_storage.block_aggregate; }
};

/**
 * \brief The one-time init kernel's body: marks the padding OOB and every
 * tile word of the region's capacity NONE (epoch 0). Traps when the region
 * holds not even the padding.
 *
 * \param d_region     the region, region_bytes bytes, 8-byte aligned
 * \param region_bytes its size; capacity = region_bytes / 8 - 32 tiles
 *
 * Launch: any grid (grid-stride); ceil((region_bytes / 8) / blockDim.x)
 * blocks writes each word once.
 */
__device__ inline void epoch_tile_state_init(void* d_region, long long region_bytes)
{
  const long long capacity = EpochTileState<unsigned>::Capacity(region_bytes);
  if (capacity < 0)
  {
    __trap();
  }
  EpochTileState<unsigned>::InitializeRegion(d_region, capacity);
}

} // namespace gocccl
