/*
 * gocccl/gpu_nan.cuh: folding a float operator over a tile with the GPU's
 * NaNs first, and with Go's again only when a NaN came out.
 *
 * Go's float + - * / return amd64's NaN payloads; gosem.cuh's fadd, fsub,
 * fmul and fquo reproduce them with a compare and a rarely taken branch per
 * operation. In a kernel that applies the operator many times per item
 * (CUB's unrolled warp scans, `if (lane >= offset) x = op(y, x)`) that
 * branch keeps ptxas from if-converting the operator: a float32 scan through
 * Go ran 8-26% behind the same kernel with a plain + (bench/NOTES.md,
 * 2026-12-02).
 *
 * gocccl-gen gives the functor of a float operator that never reads a NaN's
 * bits (no math.Float32bits, Float64bits, Signbit or Copysign, itself or in
 * an operator it calls) a member type gpu_nan: the operator with the GPU's
 * float arithmetic. The two return the same value wherever the operator
 * returns a number, and a NaN (perhaps with another payload) wherever it
 * returns a NaN; a NaN taken in as an operand behaves the same whatever its
 * payload, since only its bits could tell. By induction the same holds for
 * any computation made of the operator and of choices on its results (a
 * scan, a reduction): a block may compute its tile with gpu_nan, keep what it
 * got when no result is a NaN, and compute the tile again with the operator
 * itself when one is. The results are then the operator's, bit for bit.
 *
 *   GpuNan<Op, T>::value  whether Op has a twin and T is float or double
 *                         (the kernels test results of type T for NaNs)
 *   GpuNan<Op, T>::type   the twin, or Op itself
 *   is_nan(x)             x is a float or double NaN (false for other T;
 *                         a by-key scan's (flag, value) pair: its value)
 *   TwinLookBack          the look-back of a tile scanned with a twin first:
 *                         it looks back with the twin and publishes only the
 *                         operator's values
 */
#pragma once

#include <gocccl/config.cuh>
#include <gocccl/look_back.cuh>

#include <cub/util_type.cuh>

#include <type_traits>

namespace gocccl {
namespace detail {

template <typename...>
using void_t = void;

/// GpuNan<Op, T> is Op's twin with the GPU's NaNs, when it has one.
template <typename Op, typename T, typename = void>
struct GpuNan
{
  static constexpr bool value = false;
  using type                  = Op;
};

template <typename Op, typename T>
struct GpuNan<Op, T, void_t<typename Op::gpu_nan>>
{
  static constexpr bool value = std::is_same<T, float>::value || std::is_same<T, double>::value;
  using type                  = typename std::conditional<value, typename Op::gpu_nan, Op>::type;
};

/// is_nan reports whether x is a NaN; false for types other than float and
/// double. The kernels are compiled without fast-math, so x != x stays.
template <typename T>
GOCCCL_DEVICE bool is_nan(const T& x)
{
  if constexpr (std::is_same<T, float>::value || std::is_same<T, double>::value)
  {
    return x != x;
  }
  else
  {
    return false;
  }
}

/// any_nan reports whether one of a thread's N items is a NaN.
template <typename T, int N>
GOCCCL_DEVICE bool any_nan(const T (&items)[N])
{
  bool nan = false;
#pragma unroll
  for (int i = 0; i < N; ++i)
  {
    nan |= is_nan(items[i]);
  }
  return nan;
}

/// is_nan of a (flag, value) pair of the by-key scans tests its value.
template <typename K, typename V>
GOCCCL_DEVICE bool is_nan(const cub::KeyValuePair<K, V>& p)
{
  return is_nan(p.value);
}

/// What a tile's look-back leaves in shared memory for its second scan
/// (TwinLookBack). Trivial (raw bytes for the prefix), so that it may sit in
/// a kernel's shared-memory union; written and read by thread 0 until the
/// barrier after the first scan.
template <typename S>
struct Stash
{
  alignas(S) unsigned char prefix_bytes[sizeof(S)]; // the twin's exclusive prefix, when it looked back
  bool again;     // the second scan must look back itself (the twin's prefix is not the operator's)
  bool refused;   // the twin's inclusive prefix was a NaN: not published
  bool published; // the tile's inclusive prefix is published (it never is twice)

  GOCCCL_DEVICE S& prefix() { return *reinterpret_cast<S*>(prefix_bytes); }
};

/// KnownPrefix gives a tile's second scan the prefix its first one looked
/// up.
template <typename S>
struct KnownPrefix
{
  S prefix;

  GOCCCL_DEVICE S operator()(S)
  {
    return prefix;
  }
};

/// Publishing is the tile state as a tile's look-backs see it: a tile
/// publishes its inclusive prefix once, and, from the look-back with the
/// twin, only when it is a number (then it is the operator's too). Tile
/// states are CUB's (SetPartial, SetInclusive, WaitForValid).
template <typename TileState, typename S>
struct Publishing
{
  using StatusWord = typename TileState::StatusWord;

  TileState& state;
  Stash<S>& stash;
  bool twin;

  template <typename... A>
  GOCCCL_DEVICE void WaitForValid(A&&... a)
  {
    state.WaitForValid(static_cast<A&&>(a)...);
  }
  GOCCCL_DEVICE void SetPartial(int tile, S aggregate)
  {
    if (!stash.published) // never back from inclusive to partial
    {
      state.SetPartial(tile, aggregate);
    }
  }
  GOCCCL_DEVICE void SetInclusive(int tile, S inclusive)
  {
    if (stash.published)
    {
      return;
    }
    if (twin && is_nan(inclusive))
    {
      stash.refused = true;
      return;
    }
    state.SetInclusive(tile, inclusive);
    stash.published = true;
  }
};

/// TwinLookBack is the decoupled look-back of a tile scanned twice at most:
/// first with the twin Twin of the scan operator Op, looking back with the
/// twin too (first(), the block-prefix callback of the first scan), then,
/// when a result of the tile is a NaN, with Op (the callback again() or
/// known()). What it publishes is Op's: the tile's aggregate only when the
/// twin's is a number, its inclusive prefix only when that is a number or
/// comes from Op. A NaN aggregate, a NaN prefix or a refused inclusive prefix
/// make the second scan look back itself (again()); otherwise it takes the
/// prefix the first found (known()).
///
/// TilePrefixCallbackOp looks back with the twin because its operator is on
/// the critical path of every later tile: Go's NaN checks there cost
/// ReduceByKey a quarter of its time (bench/NOTES.md, 2026-12-02).
template <typename S, typename Op, typename Twin, typename TileState, typename Delay>
struct TwinLookBack
{
  using Tiles       = Publishing<TileState, S>;
  using FirstPrefix = TilePrefix<S, Twin, Tiles, Delay>;
  using AgainPrefix = TilePrefix<S, Op, Tiles, Delay>;

  /// Shared memory of the look-backs (the same layout for both) and the stash.
  struct TempStorage
  {
    typename FirstPrefix::TempStorage prefix;
    Stash<S> stash;
  };

  TempStorage& temp;
  Tiles twin_tiles, op_tiles;
  int tile_idx;

  GOCCCL_DEVICE TwinLookBack(TileState& state, TempStorage& temp, int tile_idx)
      : temp(temp)
      , twin_tiles{state, temp.stash, true}
      , op_tiles{state, temp.stash, false}
      , tile_idx(tile_idx)
  {}

  /// The first scan's block-prefix callback (warp 0, the twin's aggregate).
  struct First
  {
    TwinLookBack& lb;

    GOCCCL_DEVICE S operator()(S aggregate)
    {
      Stash<S>& stash = lb.temp.stash;
      if (threadIdx.x == 0)
      {
        stash.refused   = false;
        stash.published = false;
      }
      if (is_nan(aggregate)) // the same in every lane of warp 0: publish nothing
      {
        if (threadIdx.x == 0)
        {
          stash.again = true;
        }
        return aggregate;
      }
      FirstPrefix look_back(lb.twin_tiles, lb.temp.prefix, Twin(), lb.tile_idx);
      const S prefix = look_back(aggregate);
      if (threadIdx.x == 0) // prefix is valid in lane 0
      {
        stash.prefix() = prefix;
        stash.again    = is_nan(prefix) || stash.refused;
      }
      return prefix;
    }
  };

  GOCCCL_DEVICE First first() { return First{*this}; }

  /// Whether the second scan must look back itself; any thread, after a
  /// barrier that follows the first scan.
  GOCCCL_DEVICE bool again() const { return temp.stash.again; }

  /// The second scan's callback when again(): the look-back with Op.
  GOCCCL_DEVICE AgainPrefix with_op()
  {
    return AgainPrefix(op_tiles, reinterpret_cast<typename AgainPrefix::TempStorage&>(temp.prefix), Op(), tile_idx);
  }

  /// The second scan's callback otherwise: the first look-back's prefix.
  GOCCCL_DEVICE KnownPrefix<S> known() const { return KnownPrefix<S>{temp.stash.prefix()}; }
};

} // namespace detail
} // namespace gocccl
