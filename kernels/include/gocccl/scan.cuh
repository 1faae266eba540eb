/*
 * gocccl/scan.cuh: device-wide inclusive and exclusive scans in a single
 * pass with decoupled look-back, as CUB's AgentScan (the kernel side of
 * runtime.InclusiveScan / ExclusiveScan; see docs/ARCHITECTURE.md).
 *
 *   <sym>_init   scan_init       readies the tile states: with epoch tile
 *                                states (values of at most 16 bytes,
 *                                epoch_tile_state.cuh) once per region, not
 *                                per call; otherwise, as CUB, marks every
 *                                tile state invalid before every call
 *                                (cub::ScanTileState::InitializeStatus).
 *   <sym>_sweep  inclusive_scan  grid num_tiles: block b loads tile b, scans
 *                exclusive_scan  it with cub::BlockScan and takes the prefix
 *                                of the tiles before it from their published
 *                                states (cub::TilePrefixCallbackOp), then
 *                                stores the tile.
 *
 * TILE = BLOCK_THREADS * ITEMS_PER_THREAD, num_tiles = ceil(n / TILE). Host
 * dispatch (Go runtime): nothing for n == 0; for n <= TILE only _sweep, on
 * one block, with d_state == nullptr (a single tile publishes nothing and
 * looks back at nothing). Otherwise, with epoch states (runtime/scratch.go,
 * epochStates): the stream's epoch region of at least
 * EpochTileState<T>::AllocationSize(num_tiles) bytes, _init over it when it
 * is new, grown or its epochs run out, then _sweep with the call's epoch:
 * ONE launch per call in the steady state. With CUB's states (values wider
 * than 16 bytes): _init then _sweep on at least
 * cub::ScanTileState<T>::AllocationSize(num_tiles) bytes. _init traps when
 * state_bytes is too small.
 *
 * The init value: tile 0 seeds its block scan with it (exclusive: thread 0's
 * first output is init; inclusive: folded into the first item as
 * op(init, in[0])), and publishes op(init, aggregate), so every later tile's
 * look-back prefix already contains it: no identity element is ever needed,
 * so max/min exclusive scans with an init are exact. It is `init`, or
 * *d_init when d_init is not null, read by tile 0 when the kernel runs
 * (cuda.compute's "future value"). An inclusive scan without init
 * (has_init == false) scans the input alone.
 *
 * Go's NaNs: a float ScanOp with a twin (gpu_nan.cuh) scans each tile with
 * the twin first, and again with ScanOp only when a result or the tile's
 * aggregate is a NaN; tiles publish only ScanOp's values.
 *
 * Order: each output is the operator folded over its inputs in index order
 * (the block scan and the look-back only reassociate), so the operator must
 * be associative but need not be commutative. Floating-point results may
 * differ from a sequential loop by rounding.
 *
 * Memory: tiles are loaded and stored with warp transposes
 * (BLOCK_LOAD_WARP_TRANSPOSE / BLOCK_STORE_WARP_TRANSPOSE, CUB's scan
 * policy on sm_90) with plain loads, so in-place use is allowed: d_out may be
 * exactly d_in (a tile is read before it is written, and no block reads
 * another's tile); partial overlap is not. The last tile's out-of-range slots
 * are filled with the tile's first item, scanned, and never stored. All
 * sizes and offsets are 64-bit; tile indices are int (the grid's x limit).
 *
 * ---------------------------------------------------------------------------
 * Recommended policy (internal/algo/scan.go): on sm_90, CCCL's tuned
 * cub::DeviceScan policies for primitive accumulators
 *
 *   sizeof(T)  nominal (4-byte)  BLOCK_THREADS x ITEMS  TILE  look-back waits
 *   1          192 x 22          192 x 44               8448  FixedDelay<168, 1140>
 *   2          512 x 12          512 x 24              12288  FixedDelay<376, 1125>
 *   4          128 x 24          128 x 24               3072  FixedDelay<648, 1245>
 *   8          224 x 24          224 x 12               2688  FixedDelay<632, 1290>
 *
 * (cub::AgentScanPolicy scales its nominal 4-byte shape by
 * cub::MemBoundScaling, so these are the shapes CUB runs),
 * and otherwise CUB's default AgentScanPolicy<128, 15> under
 * cub::MemBoundScaling (4 bytes: 128 x 15; 12 bytes: 128 x 5). The tile's
 * warp-transpose storage (TILE * sizeof(T) bytes) must fit 48 KiB.
 * ---------------------------------------------------------------------------
 *
 * Requirements on T: trivially copyable and default constructible.
 * Requirements on ScanOp: default constructible functor with
 * `T operator()(T, T) const`, associative.
 * Kernels must be launched with blockDim = (BLOCK_THREADS, 1, 1).
 */
#pragma once

#include <gocccl/config.cuh>
#include <gocccl/epoch_tile_state.cuh>
#include <gocccl/gpu_nan.cuh>
#include <gocccl/look_back.cuh>

#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/util_type.cuh>

namespace gocccl {
namespace detail {

/// One thread block's tile of a single-pass scan (cub::AgentScan).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ScanOp, typename Delay = DefaultDelay>
struct ScanTile
{
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;

  static_assert(BLOCK_THREADS > 0 && BLOCK_THREADS % 32 == 0 && BLOCK_THREADS <= 1024,
                "gocccl::scan: BLOCK_THREADS must be a multiple of 32 in [32, 1024]");
  static_assert(ITEMS_PER_THREAD > 0, "gocccl::scan: ITEMS_PER_THREAD must be positive");
  static_assert(std::is_trivially_copyable<T>::value, "gocccl::scan: T must be trivially copyable");

  /// EPOCH: tile states tagged with the call's epoch (epoch_tile_state.cuh),
  /// for values of at most 16 bytes; CUB's otherwise.
  static constexpr bool EPOCH = epoch_tile_state_supported<T>;
  using TileState   = typename std::conditional<EPOCH, EpochTileState<T>, cub::ScanTileState<T>>::type;
  using BlockLoadT  = cub::BlockLoad<T, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using BlockStoreT = cub::BlockStore<T, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using BlockScanT  = cub::BlockScan<T, BLOCK_THREADS, cub::BLOCK_SCAN_WARP_SCANS>;
  using PrefixOpT   = TilePrefix<T, ScanOp, TileState, Delay>;

  /// TWIN: tiles are scanned first with FirstOp, ScanOp's twin with the
  /// GPU's NaNs (gpu_nan.cuh); otherwise FirstOp is ScanOp.
  static constexpr bool TWIN = GpuNan<ScanOp, T>::value;
  using FirstOp              = typename GpuNan<ScanOp, T>::type;
  using TwinLookBackT        = TwinLookBack<T, ScanOp, FirstOp, TileState, Delay>;

  /// Shared memory: the load, the scan with its look-back, and the store
  /// run one after another, separated by barriers.
  union Storage
  {
    typename BlockLoadT::TempStorage load;
    typename BlockStoreT::TempStorage store;
    struct
    {
      typename PrefixOpT::TempStorage prefix;
      typename BlockScanT::TempStorage scan;
      typename TwinLookBackT::TempStorage twin;
    } scan;
  };
  using TempStorage = cub::Uninitialized<Storage>;

  /// Loads tile items [tile_offset, tile_offset + valid_items) of d_in.
  /// Out-of-range slots of the last tile repeat the tile's first item: a
  /// real value, so the operator only ever sees inputs; those results are
  /// not stored.
  template <bool LAST, typename InputIt>
  static GOCCCL_DEVICE void load(Storage& temp, InputIt d_in, long long tile_offset, int valid_items,
                                 T (&items)[ITEMS_PER_THREAD])
  {
    if (LAST)
    {
      BlockLoadT(temp.load).Load(d_in + tile_offset, items, valid_items, *(d_in + tile_offset));
    }
    else
    {
      BlockLoadT(temp.load).Load(d_in + tile_offset, items);
    }
  }

  /// Scans tile 0's items with op and returns the prefix of tile 1: the
  /// aggregate with the init value folded in.
  template <bool INCLUSIVE, typename Op>
  static GOCCCL_DEVICE T scan_first(Storage& temp, T (&items)[ITEMS_PER_THREAD], bool has_init, const T& init, Op op)
  {
    T aggregate;
    if (INCLUSIVE)
    {
      // Items are blocked: thread 0's first item is the input's first.
      if (has_init && threadIdx.x == 0)
      {
        items[0] = op(init, items[0]);
      }
      BlockScanT(temp.scan.scan).InclusiveScan(items, items, op, aggregate);
    }
    else
    {
      BlockScanT(temp.scan.scan).ExclusiveScan(items, items, init, op, aggregate);
      aggregate = op(init, aggregate); // the prefix of tile 1 includes init
    }
    return aggregate;
  }

  /// Scans a later tile's items with op, the tile's prefix coming from the
  /// callback prefix (called by warp 0 with the tile's aggregate).
  template <bool INCLUSIVE, typename Op, typename Prefix>
  static GOCCCL_DEVICE void scan_later(Storage& temp, T (&items)[ITEMS_PER_THREAD], Op op, Prefix& prefix)
  {
    if (INCLUSIVE)
    {
      BlockScanT(temp.scan.scan).InclusiveScan(items, items, op, prefix);
    }
    else
    {
      BlockScanT(temp.scan.scan).ExclusiveScan(items, items, op, prefix);
    }
  }

  /// Scans tile tile_idx (items [tile_offset, tile_offset + valid_items)
  /// of d_in) into d_out. LAST: the tile is the input's last (possibly
  /// partial: valid_items <= TILE_ITEMS), so it publishes nothing.
  ///
  /// When ScanOp has a twin with the GPU's NaNs (gpu_nan.cuh), the tile is
  /// scanned and looks back with the twin and, when a result or the
  /// aggregate is a NaN, is loaded and scanned again with ScanOp. The tile
  /// publishes only ScanOp's values (TwinLookBack).
  template <bool INCLUSIVE, bool LAST, typename InputIt, typename OutputIt>
  static GOCCCL_DEVICE void consume(Storage& temp, TileState& state, InputIt d_in, OutputIt d_out,
                                    int tile_idx, long long tile_offset, int valid_items,
                                    bool has_init, const T& init)
  {
    T items[ITEMS_PER_THREAD];
    load<LAST>(temp, d_in, tile_offset, valid_items, items);
    __syncthreads();

    if (tile_idx == 0)
    {
      T aggregate = scan_first<INCLUSIVE>(temp, items, has_init, init, FirstOp());
      if constexpr (TWIN)
      {
        if (__syncthreads_or(any_nan(items) || is_nan(aggregate)))
        {
          load<LAST>(temp, d_in, tile_offset, valid_items, items);
          __syncthreads();
          aggregate = scan_first<INCLUSIVE>(temp, items, has_init, init, ScanOp());
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
        scan_later<INCLUSIVE>(temp, items, FirstOp(), first);
        if (__syncthreads_or(any_nan(items) || (threadIdx.x == 0 && look_back.again())))
        {
          const bool again     = look_back.again();
          const bool published = temp.scan.twin.stash.published;
          KnownPrefix<T> known = again ? KnownPrefix<T>{T()} : look_back.known();
          __syncthreads(); // every thread has read the stash: the load may reuse it
          load<LAST>(temp, d_in, tile_offset, valid_items, items);
          __syncthreads();
          if (again)
          {
            if (threadIdx.x == 0)
            {
              temp.scan.twin.stash.published = published; // thread 0 alone reads it, in the look-back
            }
            auto with_op = look_back.with_op();
            scan_later<INCLUSIVE>(temp, items, ScanOp(), with_op);
          }
          else
          {
            scan_later<INCLUSIVE>(temp, items, ScanOp(), known);
          }
        }
      }
      else
      {
        PrefixOpT look_back(state, temp.scan.prefix, ScanOp(), tile_idx);
        scan_later<INCLUSIVE>(temp, items, ScanOp(), look_back);
      }
    }
    __syncthreads();

    if (LAST)
    {
      BlockStoreT(temp.store).Store(d_out + tile_offset, items, valid_items);
    }
    else
    {
      BlockStoreT(temp.store).Store(d_out + tile_offset, items);
    }
  }

  /// The sweep kernel's body: block blockIdx.x scans its tile.
  template <bool INCLUSIVE, typename InputIt, typename OutputIt>
  static GOCCCL_DEVICE void sweep(InputIt d_in, OutputIt d_out, long long n, void* d_state, long long state_bytes,
                                  unsigned epoch, T init, const T* d_init, bool has_init)
  {
    __shared__ TempStorage temp;

    const int tile_idx = static_cast<int>(blockIdx.x);
    const long long tile_offset = static_cast<long long>(tile_idx) * TILE_ITEMS;
    if (tile_offset >= n)
    {
      return; // grid larger than num_tiles: nothing to do (block-uniform)
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
    if (tile_idx == 0 && d_init != nullptr && (has_init || !INCLUSIVE))
    {
      init = *d_init; // the future value: read now, by the only tile that uses it
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
 * \brief Kernel 1 of a multi-tile scan: readies the tile states in d_state.
 * With epoch tile states (values of at most 16 bytes) it initializes the
 * whole region (epoch_tile_state_init: the host launches it once per region,
 * not per call) and ignores num_tiles; otherwise it marks the num_tiles CUB
 * tile states invalid, before every multi-tile sweep.
 *
 * \tparam BLOCK_THREADS, ITEMS_PER_THREAD, T, ScanOp  as for inclusive_scan
 *
 * \param d_state      tile states, state_bytes bytes of device memory (16-byte aligned)
 * \param state_bytes  at least the states' AllocationSize(num_tiles); traps otherwise
 * \param num_tiles    tiles of the sweep, >= 1
 *
 * Launch: any grid for epoch states (grid-stride over the region's
 * state_bytes / 8 words); gridDim.x == ceil(num_tiles / BLOCK_THREADS)
 * otherwise.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ScanOp>
__device__ void scan_init(void* d_state, long long state_bytes, long long num_tiles)
{
  using Tile      = detail::ScanTile<BLOCK_THREADS, ITEMS_PER_THREAD, T, ScanOp>;
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
 * \brief d_out[i] = [init op] d_in[0] op ... op d_in[i] for i in [0, n).
 *
 * \tparam BLOCK_THREADS     threads per block (multiple of 32, <= 1024); launch with blockDim.x == BLOCK_THREADS
 * \tparam ITEMS_PER_THREAD  items each thread scans per tile
 * \tparam T                 item type (trivially copyable)
 * \tparam ScanOp            default-constructible `T operator()(T, T) const`, associative
 * \tparam InputIt           random-access input iterator over T (deduced; `const T*` today)
 *
 * \param d_in         input, n items
 * \param d_out        output, n items; may be d_in itself, must not partially overlap it
 * \param n            item count, n >= 1
 * \param d_state      tile states readied by scan_init; unused (may be null) when n <= TILE
 * \param state_bytes  size of d_state
 * \param epoch        with epoch tile states, this call's epoch (1 .. EPOCH_TILE_MAX, distinct
 *                     since the region's init: epoch_tile_state.cuh's host protocol); ignored
 *                     otherwise
 * \param init         the init value when has_init and d_init is null
 * \param d_init       when not null (and has_init), the init value is *d_init, read when the kernel runs
 * \param has_init     whether the scan has an init value
 * \param Delay        the look-back's waits (look_back.cuh), a tag; DefaultDelay when left out
 *
 * Launch: gridDim.x == ceil(n / (BLOCK_THREADS * ITEMS_PER_THREAD)); with
 * more than one tile, after scan_init on the same stream (once per region
 * for epoch states, before every call otherwise).
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ScanOp, typename InputIt, typename OutputIt,
          typename Delay = DefaultDelay>
__device__ void inclusive_scan(InputIt d_in, OutputIt d_out, long long n, void* d_state, long long state_bytes,
                               unsigned epoch, T init, const T* d_init, bool has_init, Delay = Delay())
{
  detail::ScanTile<BLOCK_THREADS, ITEMS_PER_THREAD, T, ScanOp, Delay>::template sweep<true>(
    d_in, d_out, n, d_state, state_bytes, epoch, init, d_init, has_init);
}

/**
 * \brief d_out[0] = init, d_out[i] = init op d_in[0] op ... op d_in[i-1] for
 * i in [1, n).
 *
 * Parameters and launch as for inclusive_scan; the init value (init, or
 * *d_init when d_init is not null) is always used, and has_init is ignored.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ScanOp, typename InputIt, typename OutputIt,
          typename Delay = DefaultDelay>
__device__ void exclusive_scan(InputIt d_in, OutputIt d_out, long long n, void* d_state, long long state_bytes,
                               unsigned epoch, T init, const T* d_init, bool has_init, Delay = Delay())
{
  detail::ScanTile<BLOCK_THREADS, ITEMS_PER_THREAD, T, ScanOp, Delay>::template sweep<false>(
    d_in, d_out, n, d_state, state_bytes, epoch, init, d_init, true);
}

} // namespace gocccl
