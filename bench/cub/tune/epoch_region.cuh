// epoch_region.cuh: the host side of epoch_tile_state.cuh's protocol for the
// tune benches of select.cuh's kernels, what runtime/epochs.go does per
// stream: one region of epoch tile states sized for a shape's calls, the
// kernel's init run over it once (init_once), then epochs 1, 2, ... one per
// call (next), all on the default stream. A call of one tile takes no
// region (ptr() is null) and epoch 0.
#pragma once

#include "bench.cuh"

#include <gocccl/epoch_tile_state.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace bench {

// EpochRegion holds the epoch tile states of calls over tiles tiles.
class EpochRegion
{
public:
  // bytes: at least EpochTileState<S>::AllocationSize(tiles) for the
  // kernel's look-back value S (bytes_for); unused for one tile.
  EpochRegion(long long tiles, long long bytes)
      : tiles_(tiles)
      , bytes_(tiles > 1 ? bytes : 0)
      , buf_(static_cast<size_t>(bytes_))
  {}

  // bytes_for is the region of tiles tiles of look-back values S.
  template <typename S>
  static long long bytes_for(long long tiles)
  {
    return static_cast<long long>(gocccl::EpochTileState<S>::AllocationSize(tiles));
  }

  void* ptr() const { return tiles_ > 1 ? buf_.get() : nullptr; }
  long long bytes() const { return bytes_; }

  // init_once launches init(d_state, state_bytes, tiles) over the region
  // (select.cuh's init kernels take the counts last: pass them in init) the
  // first time, before the first call; nothing for one tile or none.
  template <typename Init>
  void init_once(int threads, Init init)
  {
    if (tiles_ <= 1 || ready_)
      return;
    const long long words = bytes_ / 8;
    const unsigned grid   = static_cast<unsigned>(std::max(1LL, std::min((words + threads - 1) / threads, 4096LL)));
    init(grid, buf_.get(), bytes_, tiles_);
    ready_ = true;
  }

  // next is the epoch of the next call: 1, 2, ... since the init (0 for one
  // tile). A bench never issues 2^30 - 2 calls on one region; it stops
  // rather than reuse an epoch.
  unsigned next()
  {
    if (tiles_ <= 1)
      return 0;
    if (!ready_ || epoch_ + 1 >= gocccl::EPOCH_TILE_MAX)
    {
      std::fprintf(stderr, "EpochRegion: %s\n", ready_ ? "epochs exhausted" : "call before init_once");
      std::exit(2);
    }
    return ++epoch_;
  }

private:
  long long tiles_, bytes_;
  DeviceBuffer<unsigned char> buf_;
  bool ready_     = false;
  unsigned epoch_ = 0;
};

} // namespace bench
