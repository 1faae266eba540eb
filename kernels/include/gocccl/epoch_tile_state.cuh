/*
 * gocccl/epoch_tile_state.cuh: decoupled look-back tile states that never
 * need resetting between calls.
 *
 * Why. A decoupled look-back (CUB's AgentScan and its relatives) needs every
 * tile state marked "not yet published" before its single-pass kernel runs;
 * CUB launches an init kernel for that (ScanTileState::InitializeStatus)
 * before every call: two launches. Our tile states live in memory the
 * stream keeps across calls (runtime/scratch.go), so the states a tile finds
 * from earlier calls only need to be *told apart* from the current call's,
 * not erased. Here every status carries the number of the call that wrote it
 * (its epoch, a kernel argument the host increments per call on that
 * memory); a state of another epoch reads as "not yet published", exactly as
 * CUB's SCAN_TILE_INVALID. One launch per call; the init kernel runs once
 * per region (see "Host protocol").
 *
 * EpochTileState<T> is a drop-in for cub::ScanTileState<T>'s device side
 * (StatusWord, SetPartial, SetInclusive, WaitForValid with CUB's status
 * values), so cub::TilePrefixCallbackOp, gpu_nan.cuh's TwinLookBack and the
 * by-key look-backs use it unchanged. Values up to 16 bytes
 * (epoch_tile_state_supported<T>); wider ones keep CUB's states.
 *
 * ---------------------------------------------------------------------------
 * Word format. A tile's state is WORDS = ceil(sizeof(T) / 4) 64-bit words
 * (1 to 4), each
 *
 *     bits  0..1   kind   0 NONE       written only by the init kernel
 *                         1 PARTIAL    the tile's aggregate
 *                         2 INCLUSIVE  the inclusive prefix through the tile
 *                         3 OOB        the padding before tile 0
 *     bits  2..31  epoch  1 .. EPOCH_TILE_MAX (2^30 - 1); 0 only from the init
 *     bits 32..63  4 bytes of the value: word i holds bytes 4i .. 4i+3
 *                  (zero past sizeof(T))
 *
 * written with single 64-bit stores (16-byte st.v2 pairs where aligned) and
 * read with single 64-bit loads (ld.v2 pairs), relaxed at GPU scope.
 *
 * Layout: EPOCH_TILE_PADDING_WORDS (128: 32 tiles of the widest form) words,
 * then WORDS words per tile: tile t's words start at d_words[128 + WORDS t].
 * AllocationSize(tiles) = (128 + WORDS tiles) * 8 bytes. Every word of every
 * form has the same shape, and the padding is the same for all, so
 * algorithms of different T share one region and one epoch counter: a word
 * another form left is only ever a word of an earlier epoch.
 *
 * Reading tile t with the current call's epoch E (tag = E << 2): the WORDS
 * statuses must be equal, and that status s must be ready:
 *
 *   ready      epoch == E, or s == OOB (epoch 0)   ((s ^ tag) < 4 || s == 3)
 *
 * WaitForValid reports CUB's status values: SCAN_TILE_INCLUSIVE for this
 * epoch's INCLUSIVE, SCAN_TILE_PARTIAL for its PARTIAL, SCAN_TILE_OOB for the
 * padding. Anything else (NONE, a state of another epoch, words that do not
 * agree) is "not ready" and the look-back waits on it, as on CUB's
 * SCAN_TILE_INVALID. Tiles only ever write PARTIAL or INCLUSIVE with the
 * current epoch at t >= 0, so the padding, written once by the init kernel,
 * reads OOB for every epoch. As in CUB, an OOB state is ready but not
 * inclusive; the window's reduction never reaches it, because tile 0 always
 * publishes INCLUSIVE and lies between any reader and the padding.
 *
 * Why a stale word is never taken for a current one. Within one region the
 * host issues epochs that are distinct and nonzero since the region's last
 * init (1, 2, 3, ...), and runs every call on the region in stream order
 * (a kernel's stores are performed and visible before the next kernel on
 * the stream starts). So when call E starts, no word carries epoch E, and
 * during call E the only writer of tile t's words with epoch E is tile t of
 * call E: a word reads "epoch E" only once this call's tile published it.
 * Each (tile, epoch, kind) is published once with one value (CUB's callback
 * writes PARTIAL once, then INCLUSIVE once; TwinLookBack's Publishing keeps
 * that), so WORDS words that agree on epoch and kind come from one and the
 * same publication, whatever order its stores landed in: a reader never
 * mixes the halves of two values. The host re-initializes before the
 * counter would pass EPOCH_TILE_MAX. Two calls must never run at once on one
 * region: one could overwrite a word the other already published, and the
 * other's readers would then wait for ever (per-stream regions rule it out).
 *
 * Memory ordering: a one-word state is CUB's packed form exactly (status and
 * value in one single-copy-atomic 64-bit access, no fence; CUB's
 * ScanTileState<T, true> has none either). A multi-word state needs no fence
 * either: each word is single-copy atomic and carries its own status, and a
 * reader accepts only words that all carry the publication's status (above).
 * Loads and stores are relaxed at GPU scope (strong, L1-bypassing), as CUB's
 * detail::load_relaxed / store_relaxed, with CUB's delays between re-reads.
 *
 * Host protocol (runtime/scratch.go, epochStates; per region):
 *  - epoch_tile_state_init (one launch over the whole region, padding
 *    included) when the region is new or grown, or when the next epoch
 *    would reach EPOCH_TILE_MAX; then the next call uses epoch 1.
 *  - otherwise epoch = previous + 1, passed to the single-pass kernel.
 *  - single-tile calls read and write no state and need no epoch.
 *  - EPOCH_TILE_MAX itself is reserved for calls that run their own init
 *    right before (a call captured into a CUDA graph, or on fresh pool
 *    memory): a graph replays its captured epoch at times the host does not
 *    see, so a captured call initializes its range and uses the reserved
 *    epoch, which no direct call ever uses. What a replay leaves (NONE and
 *    epoch-MAX words) is stale for every direct call.
 *
 * Compiles with CUB 1.17 (CUDA 11.8) and CCCL 3.x (CUDA 13). With CUB older
 * than 2.2 the look-back passes no delay and re-reads are separated by
 * __threadfence_block(), as CUB 1.17's own WaitForValid does.
 */
#pragma once

#include <gocccl/config.cuh>

#include <cub/agent/single_pass_scan_operators.cuh>

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

/// Largest epoch; reserved for calls that initialize their range first.
constexpr unsigned EPOCH_TILE_MAX = (1u << 30) - 1;
/// Words of the widest tile state (16-byte values).
constexpr int EPOCH_TILE_MAX_WORDS = 4;
/// Padding words before tile 0: a warp's look-back window of the widest form.
constexpr int EPOCH_TILE_PADDING_WORDS = 32 * EPOCH_TILE_MAX_WORDS;

/// Whether values of type T fit an EpochTileState (at most 16 bytes);
/// wider ones keep CUB's tile states.
template <typename T>
constexpr bool epoch_tile_state_supported = sizeof(T) <= 4 * EPOCH_TILE_MAX_WORDS;

namespace detail {

using EpochWord = unsigned long long;

GOCCCL_DEVICE EpochWord epoch_load(const EpochWord* p)
{
  EpochWord w;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(w) : "l"(p) : "memory");
#else
  asm volatile("ld.volatile.global.u64 %0, [%1];" : "=l"(w) : "l"(p) : "memory");
#endif
  return w;
}

/// Two words at a 16-byte aligned address in one access (each word
/// single-copy atomic, the pair not necessarily).
GOCCCL_DEVICE void epoch_load2(const EpochWord* p, EpochWord& a, EpochWord& b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(a), "=l"(b) : "l"(p) : "memory");
#else
  asm volatile("ld.volatile.global.v2.u64 {%0, %1}, [%2];" : "=l"(a), "=l"(b) : "l"(p) : "memory");
#endif
}

GOCCCL_DEVICE void epoch_store(EpochWord* p, EpochWord w)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" : : "l"(p), "l"(w) : "memory");
#else
  asm volatile("st.volatile.global.u64 [%0], %1;" : : "l"(p), "l"(w) : "memory");
#endif
}

GOCCCL_DEVICE void epoch_store2(EpochWord* p, EpochWord a, EpochWord b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" : : "l"(p), "l"(a), "l"(b) : "memory");
#else
  asm volatile("st.volatile.global.v2.u64 [%0], {%1, %2};" : : "l"(p), "l"(a), "l"(b) : "memory");
#endif
}

/// What CUB 1.17's look-back does between re-reads (it passes no delay):
/// a block fence, which keeps the load inside the loop.
struct EpochFenceDelay
{
  GOCCCL_DEVICE void operator()() const { __threadfence_block(); }
};

} // namespace detail

/**
 * \brief Tile states of a decoupled look-back tagged with the call's epoch
 * (the header comment says how they work). Device-side interface as
 * cub::ScanTileState<T>'s: StatusWord, SetPartial, SetInclusive,
 * WaitForValid reporting CUB's SCAN_TILE_* values.
 */
template <typename T>
struct EpochTileState
{
  static_assert(std::is_trivially_copyable<T>::value, "gocccl::EpochTileState: T must be trivially copyable");

  /// Words of one tile's state.
  static constexpr int WORDS = static_cast<int>((sizeof(T) + 3) / 4);
  static_assert(WORDS <= EPOCH_TILE_MAX_WORDS, "gocccl::EpochTileState: values of at most 16 bytes");

  using StatusWord = unsigned;
  using Word       = detail::EpochWord;

  Word* d_words = nullptr; ///< padding words, then WORDS words per tile
  unsigned tag  = 0;       ///< epoch << 2 of the current call

  /// Bytes of a region for num_tiles tiles.
  __host__ __device__ static constexpr size_t AllocationSize(long long num_tiles)
  {
    return static_cast<size_t>(EPOCH_TILE_PADDING_WORDS + WORDS * num_tiles) * sizeof(Word);
  }

  /// Tiles a region of `bytes` bytes holds (negative when it holds not even
  /// the padding).
  __host__ __device__ static constexpr long long Capacity(long long bytes)
  {
    return (bytes / static_cast<long long>(sizeof(Word)) - EPOCH_TILE_PADDING_WORDS) / WORDS;
  }

  /// Binds the region (16-byte aligned) and the current call's epoch
  /// (1 .. EPOCH_TILE_MAX).
  GOCCCL_DEVICE void Init(void* d_region, unsigned epoch)
  {
    d_words = static_cast<Word*>(d_region);
    tag     = epoch << 2;
  }

  /// Publishes tile tile_idx's aggregate.
  GOCCCL_DEVICE void SetPartial(int tile_idx, T tile_partial) { publish(tile_idx, EPOCH_TILE_PARTIAL, tile_partial); }

  /// Publishes tile tile_idx's inclusive prefix.
  GOCCCL_DEVICE void SetInclusive(int tile_idx, T tile_inclusive)
  {
    publish(tile_idx, EPOCH_TILE_INCLUSIVE, tile_inclusive);
  }

  /// Called by a whole warp (each lane its own tile_idx, >= -32): waits
  /// until every lane's state is ready, as cub::ScanTileState::WaitForValid,
  /// and returns the lane's status (CUB's values) and value. DelayT: a
  /// functor called before each re-read (CUB's delay constructors').
  template <typename DelayT = detail::EpochFenceDelay>
  GOCCCL_DEVICE void WaitForValid(int tile_idx, StatusWord& status, T& value, DelayT delay = {})
  {
    const Word* p = d_words + EPOCH_TILE_PADDING_WORDS + WORDS * tile_idx;
    Word w[WORDS];
    load(p, w);
    while (__any_sync(0xffffffffu, !ready(w)))
    {
      delay();
      load(p, w);
    }
    const unsigned s = static_cast<unsigned>(w[0]) & 3u;
    status           = s == EPOCH_TILE_INCLUSIVE ? StatusWord(cub::SCAN_TILE_INCLUSIVE)
                     : s == EPOCH_TILE_PARTIAL   ? StatusWord(cub::SCAN_TILE_PARTIAL)
                                                 : StatusWord(cub::SCAN_TILE_OOB);
    unsigned bits[WORDS];
#pragma unroll
    for (int i = 0; i < WORDS; ++i)
    {
      bits[i] = static_cast<unsigned>(w[i] >> 32);
    }
    memcpy(&value, bits, sizeof(T));
  }

  /// The init kernel's body: every thread of the grid writes words
  /// i = global thread index + k * grid threads of [0, words): the padding
  /// OOB, the rest NONE with epoch 0. Any grid size works.
  GOCCCL_DEVICE static void InitializeRegion(void* d_region, long long words)
  {
    Word* w                = static_cast<Word*>(d_region);
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < words; i += stride)
    {
      w[i] = i < EPOCH_TILE_PADDING_WORDS ? Word(EPOCH_TILE_OOB) : Word(EPOCH_TILE_NONE);
    }
  }

private:
  GOCCCL_DEVICE void publish(int tile_idx, unsigned kind, const T& value)
  {
    unsigned bits[WORDS] = {};
    memcpy(bits, &value, sizeof(T));
    const Word status = tag | kind;
    Word* p           = d_words + EPOCH_TILE_PADDING_WORDS + WORDS * tile_idx;
    if constexpr (WORDS % 2 == 0)
    {
#pragma unroll
      for (int i = 0; i < WORDS; i += 2)
      {
        detail::epoch_store2(p + i, (Word(bits[i]) << 32) | status, (Word(bits[i + 1]) << 32) | status);
      }
    }
    else
    {
#pragma unroll
      for (int i = 0; i < WORDS; ++i)
      {
        detail::epoch_store(p + i, (Word(bits[i]) << 32) | status);
      }
    }
  }

  GOCCCL_DEVICE static void load(const Word* p, Word (&w)[WORDS])
  {
    if constexpr (WORDS % 2 == 0)
    {
#pragma unroll
      for (int i = 0; i < WORDS; i += 2)
      {
        detail::epoch_load2(p + i, w[i], w[i + 1]);
      }
    }
    else
    {
#pragma unroll
      for (int i = 0; i < WORDS; ++i)
      {
        w[i] = detail::epoch_load(p + i);
      }
    }
  }

  GOCCCL_DEVICE bool ready(const Word (&w)[WORDS]) const
  {
    const unsigned s = static_cast<unsigned>(w[0]);
    bool agree       = true;
#pragma unroll
    for (int i = 1; i < WORDS; ++i)
    {
      agree &= static_cast<unsigned>(w[i]) == s;
    }
    return agree && ((s ^ tag) < 4u || s == EPOCH_TILE_OOB);
  }
};

/**
 * \brief The init kernel's body: marks the padding OOB and every other word
 * of the region NONE (epoch 0). Traps when the region holds not even the
 * padding (a host bug).
 *
 * \param d_region     the region, region_bytes bytes, 16-byte aligned
 * \param region_bytes its size; it holds EpochTileState<T>::Capacity(region_bytes) tiles
 *
 * Launch: any grid (grid-stride); ceil((region_bytes / 8) / blockDim.x)
 * blocks write each word once.
 */
__device__ inline void epoch_tile_state_init(void* d_region, long long region_bytes)
{
  const long long words = region_bytes / static_cast<long long>(sizeof(detail::EpochWord));
  if (words < EPOCH_TILE_PADDING_WORDS)
  {
    __trap();
  }
  EpochTileState<unsigned>::InitializeRegion(d_region, words);
}

/**
 * \brief An algorithm's init kernel body over epoch tile states: traps when
 * the region is smaller than TileState::AllocationSize(num_tiles) (the host
 * sized it too small: a bug, never a wrong result), else initializes the
 * whole region (epoch_tile_state_init).
 *
 * \tparam TileState  an EpochTileState<S>
 */
template <typename TileState>
__device__ void init_epoch_tile_states(void* d_region, long long region_bytes, long long num_tiles)
{
  if (static_cast<long long>(TileState::AllocationSize(num_tiles)) > region_bytes)
  {
    __trap();
  }
  epoch_tile_state_init(d_region, region_bytes);
}

} // namespace gocccl
