/*
 * gocccl/scan_epoch.cuh: the single-pass scan of scan.cuh over epoch-tagged
 * tile states (epoch_tile_state.cuh), so that a multi-tile call is ONE
 * launch instead of scan_init + the sweep (PROTOTYPE: no generated package
 * includes this header yet; bench/cub/tune/scan_epoch_tune.cu measures it).
 *
 *   <sym>_state_init  epoch_tile_state_init  once per region of scratch
 *                     (epoch_tile_state.cuh): padding OOB, every tile word
 *                     of the region's capacity NONE with epoch 0.
 *   <sym>_sweep       epoch_inclusive_scan / epoch_exclusive_scan: grid
 *                     num_tiles, as scan.cuh's sweep, with the call's
 *                     epoch as an argument.
 *
 * The tile (load, block scan, store) is scan.cuh's detail::ScanTile: its
 * load, scan_first, scan_later, BlockStoreT and shared storage are used
 * unchanged; only the tile state and the look-back callback differ
 * (EpochTileState / EpochTilePrefixCallbackOp instead of cub::ScanTileState
 * / TilePrefixCallbackOp). The callback's 3 T + warp-reduce storage is
 * placed in ScanTile's own slot for CUB's callback storage (same members),
 * so shared memory is exactly scan.cuh's. Operators with a GPU-NaN twin
 * (gpu_nan.cuh) are not supported by the prototype (static_assert); the
 * twin's look-back would take EpochTileState the same way.
 *
 * Host dispatch (n >= 1, TILE = BLOCK_THREADS * ITEMS_PER_THREAD,
 * num_tiles = ceil(n / TILE)):
 *   - num_tiles == 1: the sweep alone, d_state may be null, epoch ignored.
 *   - else, on a region of scratch of region_bytes >=
 *     EpochTileState<T>::AllocationSize(num_tiles) bytes: if the region
 *     needs (re)initializing (new, grown, written by anything else, or the
 *     epoch would pass EPOCH_TILE_MAX) launch the state init over the whole
 *     region and set epoch = 0; then epoch += 1 and launch the sweep with it.
 *   The host guarantees the region's size and the epoch's range, as it
 *   sizes today's states (scan.cuh's sweep does not check state_bytes
 *   either). With -DGOCCCL_EPOCH_CHECKS the sweep traps when the region is
 *   too small for num_tiles or the epoch is 0 or above EPOCH_TILE_MAX; off
 *   by default because any such check costs the uint32 sweep 8 registers
 *   (72 against today's 64 with nvcc 13 at 128 x 24: 7 blocks an SM
 *   instead of 8), whether it traps or returns, wherever it sits.
 *
 * ---------------------------------------------------------------------------
 * Rolling it out to the other look-back algorithms (design note)
 *
 * Kernels. Scan by key, select / partition / unique / unique by key, run-
 * length encode and reduce by key all use cub::ScanTileState or
 * ReduceByKeyScanTileState + TilePrefixCallbackOp (directly or through
 * gpu_nan.cuh's TwinLookBack). Each takes an epoch argument and
 * EpochTileState<S> for its scan value S:
 *   - S of at most 4 bytes (select's counts, RLE's counts): the one-word form.
 *   - S of 8 bytes (a KeyValuePair<int, 4-byte V> of reduce by key and the
 *     scans by key, 8-byte plain scans): the two-word form (b) of
 *     epoch_tile_state.cuh: 16 bytes per tile, each 8-byte word
 *     (epoch << 2 | kind, 32 payload bits), accepted when both words agree.
 *     Wider S (KeyValuePair<int, 8-byte V>): three or four such words, same
 *     rule. Every 8-byte word of the region then has the same shape, whatever
 *     algorithm wrote it.
 *   - TwinLookBack (gpu_nan.cuh) keeps its logic and swaps its state type.
 *   - The compactions and reduce by key over one tile already skip the init;
 *     with epochs every size is one launch.
 *
 * Go runtime (runtime/scratch.go). Today tileStates() lends the stream
 * scratch past its first 256 bytes to any look-back call, whose init
 * kernel rewrites it; merge's splits use the same bytes. With epochs:
 *   - streamScratch gains an epoch region: {offset, bytes, epoch uint32,
 *     clean bool}. Simplest: a fixed sub-range of the scratch used only by
 *     epoch states (e.g. the scratch minus the reduction's first 256 bytes
 *     minus what merge's splits take), so nothing else ever writes it.
 *   - One counter per stream scratch, shared by every epoch algorithm: the
 *     region is one array of 8-byte words of the shape above, so a word
 *     left by select carries an older epoch for scan as well. (If two
 *     layouts could disagree on where a status half lies, e.g. a form with a
 *     3-array status array, the region needs a layout tag and a re-init on
 *     switching layout.)
 *   - Per call, under scratch.mu (as lockScratch now): if !clean or the
 *     region is smaller than AllocationSize(tiles) (grown: zeroedScratch
 *     replaced the memory) or epoch == EPOCH_TILE_MAX: launch the state init
 *     over the whole region, epoch = 0, clean = true. Then epoch++ and launch
 *     the single-pass kernel. Anything that borrows the region's bytes for
 *     something else (a pooled fallback never does: it is separate memory)
 *     sets clean = false. Growing the scratch sets clean = false.
 *   - Pooled fallback (tileStates from tempAlloc when the scratch cannot
 *     grow during a capture): fresh memory, so two launches as today (init
 *     then epoch 1).
 *   - CUDA graphs: a captured launch freezes its epoch argument, and every
 *     replay would then meet its own earlier replay's words with the same
 *     epoch and accept them: wrong prefixes. While capturing, either record
 *     init + sweep(epoch 1) (two nodes, as today; safe since the init
 *     resets the region in every replay, but it must also set clean =
 *     false for the direct calls after the capture, whose epochs could
 *     collide with 1), or make the epoch device-resident: the sweep reads
 *     *d_epoch at its start and the last block to finish (a done-counter
 *     in the scratch that it resets, as reduce_single_pass's) stores
 *     epoch + 1 (re-initializing the region itself at EPOCH_TILE_MAX). The
 *     second makes direct calls and replays share one counter; it costs an
 *     atomic per block. The first is the small change.
 *   - Concurrency: the epoch increments under scratch.mu, in enqueue order,
 *     which is the stream's execution order: correct as long as every call
 *     on the scratch is on its stream (it is: per-stream scratch).
 * ---------------------------------------------------------------------------
 */
#pragma once

#include <gocccl/epoch_tile_state.cuh>
#include <gocccl/scan.cuh>

namespace gocccl {
namespace detail {

/// One thread block's tile of a single-pass scan over epoch tile states.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ScanOp, typename Delay = DefaultDelay>
struct EpochScanTile
{
  using Base                     = ScanTile<BLOCK_THREADS, ITEMS_PER_THREAD, T, ScanOp, Delay>;
  static constexpr int TILE_ITEMS = Base::TILE_ITEMS;
  using Storage                  = typename Base::Storage;
  using TempStorage              = typename Base::TempStorage;
  using StateT                   = EpochTileState<T>;
  using PrefixOpT                = EpochTilePrefixCallbackOp<T, ScanOp, Delay>;
  using PrefixStorage            = typename PrefixOpT::TempStorage;

  static_assert(!Base::TWIN, "gocccl::scan_epoch (prototype): operators with a GPU-NaN twin are not supported yet");
  static_assert(sizeof(PrefixStorage) <= sizeof(typename Base::PrefixOpT::TempStorage)
                  && alignof(PrefixStorage) <= alignof(typename Base::PrefixOpT::TempStorage),
                "gocccl::scan_epoch: the epoch callback's storage must fit CUB's callback slot");

  /// Scans tile tile_idx as ScanTile::consume does (no twin).
  template <bool INCLUSIVE, bool LAST, typename InputIt, typename OutputIt>
  static GOCCCL_DEVICE void consume(Storage& temp, StateT& state, InputIt d_in, OutputIt d_out, int tile_idx,
                                    long long tile_offset, int valid_items, bool has_init, const T& init)
  {
    T items[ITEMS_PER_THREAD];
    Base::template load<LAST>(temp, d_in, tile_offset, valid_items, items);
    __syncthreads();

    if (tile_idx == 0)
    {
      T aggregate = Base::template scan_first<INCLUSIVE>(temp, items, has_init, init, ScanOp());
      if (!LAST && threadIdx.x == 0)
      {
        state.SetInclusive(0, aggregate);
      }
    }
    else
    {
      PrefixOpT look_back(state, reinterpret_cast<PrefixStorage&>(temp.scan.prefix), ScanOp(), tile_idx);
      Base::template scan_later<INCLUSIVE>(temp, items, ScanOp(), look_back);
    }
    __syncthreads();

    if (LAST)
    {
      typename Base::BlockStoreT(temp.store).Store(d_out + tile_offset, items, valid_items);
    }
    else
    {
      typename Base::BlockStoreT(temp.store).Store(d_out + tile_offset, items);
    }
  }

  template <bool INCLUSIVE, typename InputIt, typename OutputIt>
  static GOCCCL_DEVICE void sweep(InputIt d_in, OutputIt d_out, long long n, void* d_state, long long state_bytes,
                                  unsigned epoch, T init, const T* d_init, bool has_init)
  {
    __shared__ TempStorage temp;

    const int tile_idx          = static_cast<int>(blockIdx.x);
    const long long tile_offset = static_cast<long long>(tile_idx) * TILE_ITEMS;
    if (tile_offset >= n)
    {
      return; // grid larger than num_tiles (block-uniform)
    }
    const long long num_tiles = (n + TILE_ITEMS - 1) / TILE_ITEMS;

    StateT state;
    if (num_tiles > 1)
    {
#ifdef GOCCCL_EPOCH_CHECKS
      if (num_tiles > StateT::Capacity(state_bytes) || epoch == 0 || epoch > EPOCH_TILE_MAX)
      {
        __trap(); // region too small or epoch out of range: a host bug
      }
#else
      (void) state_bytes;
#endif
      state.Init(d_state, epoch);
    }
    if (tile_idx == 0 && d_init != nullptr && (has_init || !INCLUSIVE))
    {
      init = *d_init;
    }

    const long long remaining = n - tile_offset;
    if (remaining > TILE_ITEMS)
    {
      consume<INCLUSIVE, false>(temp.Alias(), state, d_in, d_out, tile_idx, tile_offset, TILE_ITEMS, has_init, init);
    }
    else
    {
      consume<INCLUSIVE, true>(temp.Alias(), state, d_in, d_out, tile_idx, tile_offset, static_cast<int>(remaining),
                               has_init, init);
    }
  }
};

} // namespace detail

/**
 * \brief d_out[i] = [init op] d_in[0] op ... op d_in[i], as inclusive_scan
 * (scan.cuh), in one launch per call over epoch tile states.
 *
 * \param d_state      a region initialized once by epoch_tile_state_init
 *                     and since written only by epoch sweeps; unused when
 *                     n <= TILE
 * \param state_bytes  the region's size, >= EpochTileState<T>::AllocationSize(num_tiles)
 * \param epoch        this call's epoch: 1 after the init, then one more per
 *                     multi-tile call on the region, at most EPOCH_TILE_MAX
 *
 * Other parameters and the launch as inclusive_scan's.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ScanOp, typename InputIt, typename OutputIt,
          typename Delay = DefaultDelay>
__device__ void epoch_inclusive_scan(InputIt d_in, OutputIt d_out, long long n, void* d_state, long long state_bytes,
                                     unsigned epoch, T init, const T* d_init, bool has_init, Delay = Delay())
{
  detail::EpochScanTile<BLOCK_THREADS, ITEMS_PER_THREAD, T, ScanOp, Delay>::template sweep<true>(
    d_in, d_out, n, d_state, state_bytes, epoch, init, d_init, has_init);
}

/**
 * \brief d_out[0] = init, d_out[i] = init op d_in[0] op ... op d_in[i-1], as
 * exclusive_scan (scan.cuh), in one launch per call over epoch tile states.
 * Parameters as epoch_inclusive_scan's; has_init is ignored.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ScanOp, typename InputIt, typename OutputIt,
          typename Delay = DefaultDelay>
__device__ void epoch_exclusive_scan(InputIt d_in, OutputIt d_out, long long n, void* d_state, long long state_bytes,
                                     unsigned epoch, T init, const T* d_init, bool has_init, Delay = Delay())
{
  detail::EpochScanTile<BLOCK_THREADS, ITEMS_PER_THREAD, T, ScanOp, Delay>::template sweep<false>(
    d_in, d_out, n, d_state, state_bytes, epoch, init, d_init, true);
}

} // namespace gocccl
