// radix_tune.cuh: the shared part of the radix sort tuning harness
// (radix_tune.sh builds radix_tune_*.cu into one binary): entry points of
// gocccl's Onesweep templates for any configuration, the Go runtime's
// dispatch (runtime/radix_sort_gpu.go) in C++, and the sweep of a list of
// configurations beside cub::DeviceRadixSort on the same inputs.
//
// A configuration is Config<BLOCK_THREADS, ITEMS_PER_THREAD, MIN_BLOCKS,
// PORTION_BITS, MATCH, HIST_MIN_BLOCKS, HIST_GRID>: MIN_BLOCKS is
// __launch_bounds__' second argument (1: none), PORTION_BITS the onesweep
// portion bound (29 as the runtime; less only to test portions), MATCH the
// ranking's warp match (radix::RankMatch: ballot, the default and CUB's;
// match.any, the first version's __match_any_sync; atomic-or);
// HIST_MIN_BLOCKS the histogram kernel's minimum blocks (default MIN_BLOCKS:
// the generated code gives every kernel of an instance the same bounds),
// HIST_GRID its grid in blocks per SM (default 0: the kernel's occupancy, as
// runtime/radix_sort_gpu.go since 2026-12-04; it was 2) and HIST_VERSION the
// histogram kernel (1: gocccl::radix_sort_histogram, the header's; 2: the
// header's without its prefetch of the next tile). The kernel before
// 2026-12-04 (one shared histogram per block, a runtime pass loop, a bounds
// check per item) was version 0 until its rows were taken
// (radix_shapes_hist_h200_2026-12-04.tsv); it is radix_sort.cuh at 55ec965.
#pragma once

#include "../bench.cuh"

#include <gocccl/radix_sort.cuh>

#include <cub/device/device_radix_sort.cuh>

#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

namespace tune
{
using NoValues = gocccl::detail::radix::NoValues;
using gocccl::detail::radix::RankMatch;
using gocccl::detail::radix::RANK_MATCH_ATOMIC_OR;
using gocccl::detail::radix::RANK_MATCH_BALLOT;
using gocccl::detail::radix::RANK_MATCH_NATIVE;
constexpr RankMatch DEFAULT_MATCH = gocccl::detail::radix::DEFAULT_RANK_MATCH;

inline const char* match_name(RankMatch m)
{
  return m == RANK_MATCH_NATIVE ? "match.any" : m == RANK_MATCH_ATOMIC_OR ? "atomic-or" : "ballot";
}

template <int BT, int MINB, typename K>
__global__ void __launch_bounds__(BT, MINB) k_init(void* s, long long w)
{
  gocccl::radix_sort_init<BT, 1, K>(s, w);
}

template <int BT, int MINB, typename K>
__global__ void __launch_bounds__(BT, MINB) k_hist(const K* k, long long n, void* s, long long b, long long e, bool d)
{
  gocccl::radix_sort_histogram<BT, 1, K>(k, n, s, b, e, d);
}

template <int BT, int MINB, typename K>
__global__ void __launch_bounds__(BT, MINB)
  k_hist_noprefetch(const K* k, long long n, void* s, long long b, long long e, bool d)
{
  gocccl::detail::radix::histogram<BT, K, false>(k, n, s, b, e, d);
}

template <int BT, int IPT, int MINB, int PB, RankMatch M, typename K, typename V>
__global__ void __launch_bounds__(BT, MINB)
  k_sweep(const K* ki, K* ko, const V* vi, V* vo, long long n, void* s, long long q, long long b, long long e, bool d)
{
  if constexpr (std::is_same<V, NoValues>::value)
  {
    gocccl::radix_sort_keys_onesweep<BT, IPT, K, PB, M>(ki, ko, n, s, q, b, e, d);
  }
  else
  {
    gocccl::radix_sort_pairs_onesweep<BT, IPT, K, V, PB, M>(ki, ko, vi, vo, n, s, q, b, e, d);
  }
}

template <int BT, int IPT, int MINB, RankMatch M, typename K, typename V>
__global__ void __launch_bounds__(BT, MINB)
  k_single(const K* ki, K* ko, const V* vi, V* vo, long long n, long long b, long long e, bool d)
{
  if constexpr (std::is_same<V, NoValues>::value)
  {
    gocccl::radix_sort_keys_single<BT, IPT, K, M>(ki, ko, n, b, e, d);
  }
  else
  {
    gocccl::radix_sort_pairs_single<BT, IPT, K, V, M>(ki, ko, vi, vo, n, b, e, d);
  }
}

constexpr long long kStateWords = 8 * 256 + 2 * 256 + 8; // runtime/radix_sort_gpu.go radixStateWords

template <int BT_, int IPT_, int MINB_ = 1, int PB_ = 29, RankMatch M_ = DEFAULT_MATCH, int HMINB_ = MINB_,
          int HGRID_ = 0, int HVER_ = 1>
struct Config
{
  static constexpr int BT = BT_, IPT = IPT_, MINB = MINB_, PB = PB_, HMINB = HMINB_, HGRID = HGRID_, HVER = HVER_;
  static constexpr RankMatch M = M_;
  static constexpr long long TILE = (long long)BT * IPT;
  static constexpr long long PORTION = ((1ll << PB) - 1) / TILE * TILE;

  static std::string name()
  {
    std::string s = std::to_string(BT) + "x" + std::to_string(IPT);
    if (MINB > 1) s += "/minblocks" + std::to_string(MINB);
    if (PB != 29) s += "/portion2^" + std::to_string(PB);
    s += std::string("/") + match_name(M);
    if (HVER == 2) s += "/hist-noprefetch";
    if (HMINB != MINB || HGRID != 0)
      s += "/hist-mb" + std::to_string(HMINB) + "-" + (HGRID ? std::to_string(HGRID) + "xSM" : std::string("occ"));
    return s;
  }

  // The histogram kernel of this configuration for keys K.
  template <typename K>
  static auto hist_kernel()
  {
    if constexpr (HVER == 2) return k_hist_noprefetch<BT, HMINB, K>;
    else return k_hist<BT, HMINB, K>;
  }

  // Its grid's blocks per SM: HGRID, or its occupancy (the runtime's wave).
  template <typename K>
  static int hist_blocks_per_sm()
  {
    static int occ = [] {
      int b = 0;
      BENCH_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, hist_kernel<K>(), BT, 0));
      return std::max(1, b);
    }();
    return HGRID > 0 ? HGRID : occ;
  }

  static long long lookback_words(long long n)
  {
    const long long tiles = (std::min(n, PORTION) + TILE - 1) / TILE;
    return (tiles * 256 + 1) / 2;
  }

  // Scratch of a sort from in to a distinct out (alternate buffers included).
  static size_t scratch_bytes(long long n, size_t ksize, size_t vsize)
  {
    size_t b = 8 * (kStateWords + lookback_words(n));
    b = (b + 255) / 256 * 256 + n * ksize;
    return (b + 255) / 256 * 256 + n * vsize + 256;
  }

  // The init and histogram kernels of a sort of n > TILE keys (the first
  // two launches of run): afterwards the scratch's bins hold every pass's
  // exclusive digit prefixes (8-byte words [0, passes * 256)).
  template <typename K>
  static void hist(const K* kin, long long n, char* tmp, int begin, int end, bool desc)
  {
    const long long words = kStateWords + lookback_words(n);
    const long long max_blocks = 2147483647ll;
    k_init<BT, MINB, K><<<(unsigned)std::min((words + BT - 1) / BT, max_blocks), BT>>>(tmp, words);
    const long long hist_tile = (long long)BT * (sizeof(K) >= 8 ? 8 : 16);
    const long long grid =
      std::min((n + hist_tile - 1) / hist_tile, (long long)hist_blocks_per_sm<K>() * bench::state().sms);
    const auto kernel = hist_kernel<K>();
    kernel<<<(unsigned)grid, BT>>>(kin, n, tmp, begin, end, desc);
  }

  // The Go runtime's dispatch of a sort from in to a distinct out: the passes
  // alternate between out and a scratch copy so that the last writes out.
  template <typename K, typename V>
  static void run(const K* kin, K* kout, const V* vin, V* vout, long long n, char* tmp, int begin, int end, bool desc)
  {
    constexpr bool PAIRS = !std::is_same<V, NoValues>::value;
    const int passes = (end - begin + 7) / 8;
    if (n == 0) return;
    if (passes == 0)
    {
      BENCH_CK(cudaMemcpyAsync(kout, kin, n * sizeof(K), cudaMemcpyDeviceToDevice, 0));
      if (PAIRS) BENCH_CK(cudaMemcpyAsync(vout, vin, n * sizeof(V), cudaMemcpyDeviceToDevice, 0));
      return;
    }
    if (n <= TILE)
    {
      k_single<BT, IPT, MINB, M, K, V><<<1, BT>>>(kin, kout, vin, vout, n, begin, end, desc);
      return;
    }
    const long long portions = (n + PORTION - 1) / PORTION;
    const long long words = kStateWords + lookback_words(n);
    size_t keys_at = (8 * words + 255) / 256 * 256;
    size_t values_at = (keys_at + n * sizeof(K) + 255) / 256 * 256;
    hist(kin, n, tmp, begin, end, desc);
    K* alt_k = reinterpret_cast<K*>(tmp + keys_at);
    V* alt_v = reinterpret_cast<V*>(tmp + values_at);
    const K* sk = kin;
    const V* sv = vin;
    for (int p = 0; p < passes; ++p)
    {
      const bool to_alt = (passes - 1 - p) % 2 == 1;
      K* dk = to_alt ? alt_k : kout;
      V* dv = to_alt ? alt_v : vout;
      for (long long r = 0; r < portions; ++r)
      {
        const long long items = std::min(PORTION, n - r * PORTION);
        k_sweep<BT, IPT, MINB, PB, M, K, V><<<(unsigned)((items + TILE - 1) / TILE), BT>>>(
          sk, dk, sv, dv, n, tmp, p * portions + r, begin, end, desc);
      }
      sk = dk;
      sv = dv;
    }
  }
};

template <typename K>
uint64_t mix(K k)
{
  uint64_t s = 0;
  std::memcpy(&s, &k, sizeof(K));
  return bench::splitmix64(s);
}

// check_cub returns "" when keys is the ascending (desc: descending) sort of
// in and, for pairs, in[vals[i]] == keys[i].
template <typename K>
std::string check_cub(const std::vector<K>& in, const std::vector<K>& keys, const std::vector<uint32_t>* vals,
                      bool desc = false)
{
  uint64_t a = 0, b = 0;
  for (size_t i = 0; i < in.size(); ++i)
  {
    a += mix(in[i]);
    b += mix(keys[i]);
    if (i > 0 && (desc ? keys[i - 1] < keys[i] : keys[i] < keys[i - 1])) return "not sorted at " + std::to_string(i);
    if (vals && ((*vals)[i] >= in.size() || std::memcmp(&in[(*vals)[i]], &keys[i], sizeof(K)) != 0))
      return "value " + std::to_string(i) + " is not the position of its key";
  }
  return a == b ? "" : "keys are not a permutation of the input";
}

struct Result
{
  std::string config, type;
  long long n;
  double us, cub_us;
};

inline std::vector<Result>& results()
{
  static std::vector<Result> r;
  return r;
}

// sweep times cub and every configuration Cs on keys (PAIRS: uint32 values,
// the input positions) of type K at each size, in each of `orders` (false
// ascending, true descending: type "uint32/desc"; one input for both); every
// result is compared byte for byte with CUB's (both are stable) before it is
// timed.
template <typename K, bool PAIRS, typename... Cs>
void sweep(uint64_t salt, std::initializer_list<bool> orders = {false})
{
  using V = typename std::conditional<PAIRS, uint32_t, NoValues>::type;
  const char* alg = PAIRS ? "sort_pairs" : "sort_keys";
  for (long long n : bench::sizes())
  {
    const std::vector<K> host = bench::random_items<K>(n, salt);
    bench::Rotation<K> in(host);
    bench::DeviceBuffer<uint32_t> vin(PAIRS ? static_cast<size_t>(n) : 0);
    if (PAIRS)
    {
      std::vector<uint32_t> idx(static_cast<size_t>(n));
      for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<uint32_t>(i);
      BENCH_CK(cudaMemcpy(vin.get(), idx.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    }
    bench::DeviceBuffer<K> ref(static_cast<size_t>(n)), out(static_cast<size_t>(n));
    bench::DeviceBuffer<uint32_t> vref(PAIRS ? n : 0), vout(PAIRS ? n : 0);
    const long long bytes = 2ll * n * static_cast<long long>(sizeof(K) + (PAIRS ? 4 : 0));

    size_t cub_bytes = 0, cub_desc_bytes = 0;
    if (PAIRS)
    {
      BENCH_CK(cub::DeviceRadixSort::SortPairs(nullptr, cub_bytes, in.get(0), ref.get(), vin.get(), vref.get(), n));
      BENCH_CK(cub::DeviceRadixSort::SortPairsDescending(nullptr, cub_desc_bytes, in.get(0), ref.get(), vin.get(),
                                                         vref.get(), n));
    }
    else
    {
      BENCH_CK(cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, in.get(0), ref.get(), n));
      BENCH_CK(cub::DeviceRadixSort::SortKeysDescending(nullptr, cub_desc_bytes, in.get(0), ref.get(), n));
    }
    cub_bytes = std::max(cub_bytes, cub_desc_bytes);
    size_t our_bytes = 0;
    ((our_bytes = std::max(our_bytes, Cs::scratch_bytes(n, sizeof(K), PAIRS ? 4 : 0))), ...);
    bench::DeviceBuffer<unsigned char> cub_tmp(cub_bytes);
    bench::DeviceBuffer<char> our_tmp(our_bytes);
    for (const bool desc : orders)
    {
      const std::string type = std::string(bench::type_name<K>()) + (PAIRS ? "+uint32" : "") + (desc ? "/desc" : "");
      auto run_cub = [&](int i) {
        size_t tb = cub_bytes;
        if (PAIRS && desc)
          BENCH_CK(cub::DeviceRadixSort::SortPairsDescending(cub_tmp.get(), tb, in.get(i), ref.get(), vin.get(),
                                                             vref.get(), n));
        else if (PAIRS)
          BENCH_CK(cub::DeviceRadixSort::SortPairs(cub_tmp.get(), tb, in.get(i), ref.get(), vin.get(), vref.get(), n));
        else if (desc) BENCH_CK(cub::DeviceRadixSort::SortKeysDescending(cub_tmp.get(), tb, in.get(i), ref.get(), n));
        else BENCH_CK(cub::DeviceRadixSort::SortKeys(cub_tmp.get(), tb, in.get(i), ref.get(), n));
      };
      ref.poison();
      if (PAIRS) vref.poison();
      run_cub(0);
      BENCH_CK(cudaDeviceSynchronize());
      const std::vector<K> want = ref.to_host();
      std::vector<uint32_t> wantv;
      if (PAIRS) wantv = vref.to_host();
      const std::string bad = check_cub(host, want, PAIRS ? &wantv : nullptr, desc);
      if (!bad.empty())
      {
        bench::fail("cub", alg, type.c_str(), n, bytes, bad);
        continue;
      }
      const double cub_us = bench::time_us(run_cub);
      bench::row("cub", alg, type.c_str(), n, cub_us, bytes, "cub::DeviceRadixSort");

      auto one = [&](auto cfg) {
        using C = decltype(cfg);
        auto run = [&](int i) {
          C::template run<K, V>(in.get(i), out.get(), reinterpret_cast<const V*>(vin.get()),
                                reinterpret_cast<V*>(vout.get()), n, our_tmp.get(), 0, 8 * sizeof(K), desc);
        };
        out.poison();
        if (PAIRS) vout.poison();
        run(0);
        BENCH_CK(cudaGetLastError());
        BENCH_CK(cudaDeviceSynchronize());
        std::string why;
        if (std::memcmp(out.to_host().data(), want.data(), n * sizeof(K)) != 0) why = "keys differ from CUB's";
        else if (PAIRS && std::memcmp(vout.to_host().data(), wantv.data(), n * 4) != 0) why = "values differ from CUB's";
        if (!why.empty())
        {
          bench::fail("gocccl-kernels", alg, type.c_str(), n, bytes, C::name() + ": " + why);
          return;
        }
        const double us = bench::time_us(run);
        char note[128];
        std::snprintf(note, sizeof note, "%s; %.3fx cub", C::name().c_str(), us / cub_us);
        bench::row("gocccl-kernels", alg, type.c_str(), n, us, bytes, note);
        results().push_back({C::name(), type, n, us, cub_us});
      };
      (one(Cs{}), ...);
    }
  }
}

// The sweeps of radix_tune_u32k.cu, radix_tune_u64k.cu, radix_tune_u32p.cu,
// radix_tune_mid.cu and radix_tune_order.cu, and the checks of
// radix_tune_check.cu.
void sweep_u32_keys();
void sweep_u64_keys();
void sweep_u32_pairs();
void sweep_mid();
void sweep_order();
void run_checks(bool big, bool quick);

} // namespace tune
