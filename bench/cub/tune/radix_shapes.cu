// radix_shapes: our onesweep kernels at the shapes CUB 3 actually runs on
// sm_90, beside cub::DeviceRadixSort, split into the histogram phase and the
// rest (bench/NOTES.md, "Radix: what CUB runs"). Built by radix_shapes.sh
// from this one file, compiled once per part (-DRS_PART: 0 main, 1 uint32
// keys, 2 float32 keys, 3 uint64 keys, 4 uint32 keys + uint32 values) so
// that the parts compile in parallel.
//
// Per type and size (2^24 and 2^28 by default), in this order, each output
// checked before it is timed:
//   cub             cub::DeviceRadixSort with a long long n, as bench/cub/radix.cu
//                   calls it (64-bit offsets): checked against the input on
//                   the CPU (sorted, a permutation, pairs' values the
//                   positions of their keys); every other sort below must
//                   equal it byte for byte (both are stable);
//   cub-int32n      the same with an int n (32-bit offsets: another shape);
//   cub phase       CUB's histogram phase alone, as InvokeOnesweep enqueues it
//                   (two memsets, DeviceRadixSortHistogramKernel at its
//                   occupancy x SMs, DeviceRadixSortExclusiveSumKernel),
//                   its digit prefixes checked against the CPU's;
//   gocccl-kernels  each configuration's whole sort (radix_tune.cuh's
//                   Config::run, the Go runtime's dispatch) and its
//                   histogram phase alone (init + histogram kernels, the
//                   prefixes checked against the CPU's);
//   histogram-only  hist-only variants (the histogram phase alone): the
//                   header's kernel at other bounds and grids (the kernel
//                   before 2026-12-04, hist-v0, was timed beside them:
//                   radix_shapes_hist_h200_2026-12-04.tsv).
// Rows are bench.cuh's TSV; then "# kernel" lines (registers, local memory,
// shared memory and blocks per SM of every kernel timed, from the runtime)
// and "# summary" lines per type: CUB first, then every configuration with
// the geometric mean of its time over CUB's (long long n) and, per size,
// total us (ratio), histogram phase us, the rest (total - histogram) us.
//
// Usage: radix_shapes [--runs R] [--sizes 24,28] [--seed S] [--only u32k,f32k,u64k,u32p,hist]
//
// --only hist (only when named): the histogram-focused fast mode, parts
// 5-7: per type (uint32, float32, uint64 keys) and size, CUB's sort and
// histogram phase, our whole sort with the generated policy (the header's
// histogram kernel at its occupancy, as runtime/radix_gpu.go) and the
// histogram phase alone of: the new one at 2 blocks/SM, the new one without its prefetch of the next tile
// (hist-noprefetch), and that at __launch_bounds__(384, 4) and (384, 5) at
// their occupancy (per-kernel bounds the generated code does not emit: what
// they would give). No int n CUB rows. First, hist_checks: the header's
// histogram kernel against the CPU for every key type (1-8 bytes, signed,
// float), bit windows, descending, partial tiles and grids of 1, 7 and a
// wave ("# radix_shapes: histogram checks: N cases, F failures so far").
#include "radix_tune.cuh"

#include <cmath>
#include <functional>
#include <map>

namespace shapes
{
using tune::Config;
using tune::NoValues;
using tune::RANK_MATCH_BALLOT;

struct Row
{
  std::string type, config;
  long long n;
  double us, hist_us; // hist_us: NaN when not timed
};

inline std::vector<Row>& rows()
{
  static std::vector<Row> r;
  return r;
}

struct Kernel
{
  std::string name;
  int threads;
  const void* fn;
};

inline std::vector<Kernel>& kernels()
{
  static std::vector<Kernel> k;
  return k;
}

inline void note_kernel(const std::string& name, int threads, const void* fn)
{
  for (const auto& k : kernels())
    if (k.fn == fn) return;
  kernels().push_back({name, threads, fn});
}

// The exclusive prefix of every digit of every 8-bit pass of the keys'
// ordered bits (ascending), as both histogram phases leave them.
template <typename K>
std::vector<unsigned long long> cpu_prefixes(const std::vector<K>& keys)
{
  using Bits = typename std::conditional<sizeof(K) == 8, uint64_t, uint32_t>::type;
  constexpr int PASSES = sizeof(K);
  constexpr Bits SIGN = Bits(Bits(1) << (8 * sizeof(K) - 1));
  std::vector<unsigned long long> c(PASSES * 256, 0);
  for (const K& k : keys)
  {
    Bits b;
    std::memcpy(&b, &k, sizeof(K));
    if (std::is_floating_point<K>::value) b = (b & SIGN) ? Bits(~b) : Bits(b ^ SIGN);
    for (int p = 0; p < PASSES; ++p) ++c[p * 256 + ((b >> (8 * p)) & 255)];
  }
  for (int p = 0; p < PASSES; ++p)
  {
    unsigned long long s = 0;
    for (int d = 0; d < 256; ++d)
    {
      const unsigned long long x = c[p * 256 + d];
      c[p * 256 + d] = s;
      s += x;
    }
  }
  return c;
}

// CUB's histogram phase of a sort of n keys with offsets OffsetT, as
// DispatchRadixSort::InvokeOnesweep enqueues it: the counters and bins
// zeroed, the histogram kernel at its occupancy x SMs, the exclusive sums
// of each pass. Leaves each pass's digit prefixes in bins[pass * 256 + d].
template <typename K, typename CV, typename OffsetT>
struct CubHist
{
  using Hub = cub::detail::radix::policy_hub<K, CV, OffsetT>;
  using Max = typename Hub::MaxPolicy;
  using P = typename Hub::Policy900;
  static constexpr int PASSES = sizeof(K);
  static constexpr int HT = P::HistogramPolicy::BLOCK_THREADS;
  static constexpr int ST = P::ExclusiveSumPolicy::BLOCK_THREADS;

  static constexpr auto hist_kernel =
    cub::detail::radix_sort::DeviceRadixSortHistogramKernel<Max, cub::SortOrder::Ascending, K, OffsetT>;
  static constexpr auto sum_kernel = cub::detail::radix_sort::DeviceRadixSortExclusiveSumKernel<Max, OffsetT>;
  static constexpr auto onesweep_kernel =
    cub::detail::radix_sort::DeviceRadixSortOnesweepKernel<Max, cub::SortOrder::Ascending, K, CV, OffsetT, int, int>;

  int grid = 0, occupancy = 0;
  bench::DeviceBuffer<OffsetT> bins{PASSES * 256};
  bench::DeviceBuffer<int> ctrs{PASSES};

  CubHist()
  {
    BENCH_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occupancy, hist_kernel, HT, 0));
    grid = occupancy * bench::state().sms;
    const std::string t = std::string(bench::type_name<K>()) + (std::is_same<CV, cub::NullType>::value ? "" : "+uint32")
                        + (sizeof(OffsetT) == 8 ? ", 64-bit offsets" : ", 32-bit offsets");
    note_kernel("cub histogram " + std::to_string(HT) + "x" + std::to_string(int(P::HistogramPolicy::ITEMS_PER_THREAD))
                  + " (" + t + ")",
                HT, reinterpret_cast<const void*>(hist_kernel));
    note_kernel("cub exclusive sum " + std::to_string(ST) + " (" + t + ")", ST, reinterpret_cast<const void*>(sum_kernel));
    note_kernel("cub onesweep " + std::to_string(int(P::OnesweepPolicy::BLOCK_THREADS)) + "x"
                  + std::to_string(int(P::OnesweepPolicy::ITEMS_PER_THREAD)) + " (" + t + ")",
                int(P::OnesweepPolicy::BLOCK_THREADS), reinterpret_cast<const void*>(onesweep_kernel));
  }

  void run(const K* keys, long long n)
  {
    BENCH_CK(cudaMemsetAsync(ctrs.get(), 0, PASSES * sizeof(int), 0));
    BENCH_CK(cudaMemsetAsync(bins.get(), 0, PASSES * 256 * sizeof(OffsetT), 0));
    hist_kernel<<<grid, HT>>>(bins.get(), keys, static_cast<OffsetT>(n), 0, 8 * int(sizeof(K)),
                              cub::detail::identity_decomposer_t{});
    sum_kernel<<<PASSES, ST>>>(bins.get());
  }

  std::string check(const std::vector<unsigned long long>& want) const
  {
    const std::vector<OffsetT> got = bins.to_host();
    for (size_t i = 0; i < want.size(); ++i)
      if (static_cast<unsigned long long>(got[i]) != want[i]) return "digit prefix " + std::to_string(i) + " differs";
    return "";
  }
};

// Our histogram phase (Config::hist): the prefixes are the scratch's first
// passes * 256 8-byte words.
template <typename C, typename K>
std::string check_our_hist(char* tmp, const std::vector<unsigned long long>& want)
{
  std::vector<unsigned long long> got(want.size());
  BENCH_CK(cudaMemcpy(got.data(), tmp, got.size() * 8, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) return "digit prefix " + std::to_string(i) + " differs";
  return "";
}

template <typename C, typename K, typename V>
void note_config()
{
  const std::string t = std::string(bench::type_name<K>()) + (std::is_same<V, NoValues>::value ? "" : "+uint32");
  note_kernel("gocccl onesweep " + C::name() + " (" + t + ")", C::BT,
              reinterpret_cast<const void*>(tune::k_sweep<C::BT, C::IPT, C::MINB, C::PB, C::M, K, V>));
  note_kernel(std::string("gocccl histogram ") + std::to_string(C::BT) + "x"
                + std::to_string(sizeof(K) >= 8 ? 8 : 16) + " minblocks " + std::to_string(C::HMINB) + " ("
                + bench::type_name<K>() + ")",
              C::BT, reinterpret_cast<const void*>(C::template hist_kernel<K>()));
}

// HistOnly<C> times configuration C's histogram phase alone (no sort).
template <typename C>
struct HistOnly : C
{};

// One case (type, size) of compare, for the configurations' runners.
template <typename K, bool PAIRS>
struct Case
{
  using V = typename std::conditional<PAIRS, uint32_t, NoValues>::type;
  std::string type;
  const char* alg;
  long long n, bytes;
  double cub_us;
  const bench::Rotation<K>& in;
  const bench::DeviceBuffer<uint32_t>& vin;
  const bench::DeviceBuffer<K>& out;
  const bench::DeviceBuffer<uint32_t>& vout;
  const bench::DeviceBuffer<char>& tmp;
  const std::vector<unsigned long long>& prefixes;
  std::function<std::string()> same; // out (and vout) against CUB's result

  // times C's histogram phase after checking its prefixes; NaN on failure.
  template <typename C>
  double hist_phase(const std::string& system)
  {
    auto hist = [&](int i) { C::hist(in.get(i), n, tmp.get(), 0, 8 * int(sizeof(K)), false); };
    BENCH_CK(cudaMemset(tmp.get(), 0xAB, prefixes.size() * 8));
    hist(0);
    BENCH_CK(cudaGetLastError());
    BENCH_CK(cudaDeviceSynchronize());
    const std::string why = check_our_hist<C, K>(tmp.get(), prefixes);
    if (!why.empty())
    {
      bench::fail(system.c_str(), "radix_histogram_phase", type.c_str(), n, n * long(sizeof(K)), C::name() + ": " + why);
      return NAN;
    }
    const double us = bench::time_us(hist);
    char note[200];
    std::snprintf(note, sizeof note, "%s: init + histogram %dx%d, minblocks %d, grid %d blocks/SM%s",
                  C::name().c_str(), C::BT, sizeof(K) >= 8 ? 8 : 16, C::HMINB,
                  C::template hist_blocks_per_sm<K>(), C::HGRID == 0 ? " (occupancy)" : "");
    bench::row(system.c_str(), "radix_histogram_phase", type.c_str(), n, us, n * long(sizeof(K)), note);
    return us;
  }
};

template <typename C>
struct Runner
{
  template <typename K, bool PAIRS>
  static void run(Case<K, PAIRS>& c)
  {
    using V = typename Case<K, PAIRS>::V;
    note_config<C, K, V>();
    auto sort = [&](int i) {
      C::template run<K, V>(c.in.get(i), c.out.get(), reinterpret_cast<const V*>(c.vin.get()),
                            reinterpret_cast<V*>(c.vout.get()), c.n, c.tmp.get(), 0, 8 * int(sizeof(K)), false);
    };
    c.out.poison();
    if (PAIRS) c.vout.poison();
    sort(0);
    BENCH_CK(cudaGetLastError());
    BENCH_CK(cudaDeviceSynchronize());
    const std::string why = c.same();
    if (!why.empty())
    {
      bench::fail("gocccl-kernels", c.alg, c.type.c_str(), c.n, c.bytes, C::name() + ": " + why);
      return;
    }
    const double us = bench::time_us(sort);
    char note[160];
    std::snprintf(note, sizeof note, "%s; %.3fx cub", C::name().c_str(), us / c.cub_us);
    bench::row("gocccl-kernels", c.alg, c.type.c_str(), c.n, us, c.bytes, note);
    const double hist_us = c.template hist_phase<C>("gocccl-kernels");
    rows().push_back({c.type, C::name(), c.n, us, hist_us});
  }
};

template <typename C>
struct Runner<HistOnly<C>>
{
  template <typename K, bool PAIRS>
  static void run(Case<K, PAIRS>& c)
  {
    note_config<C, K, typename Case<K, PAIRS>::V>();
    const double hist_us = c.template hist_phase<C>("gocccl-histogram-only");
    rows().push_back({c.type, "histogram phase only: " + C::name(), c.n, NAN, hist_us});
  }
};

// compare times CUB and every configuration Cs (or HistOnly<C>) on random
// keys of type K (PAIRS: uint32 values, the input positions) at each size.
template <typename K, bool PAIRS, typename... Cs>
void compare(uint64_t salt, bool with_int32n = true)
{
  using CV = typename std::conditional<PAIRS, uint32_t, cub::NullType>::type;
  const std::string type = std::string(bench::type_name<K>()) + (PAIRS ? "+uint32" : "");
  const char* alg = PAIRS ? "sort_pairs" : "sort_keys";
  CubHist<K, CV, unsigned long long> cub_hist;
  CubHist<K, CV, uint32_t> cub_hist32; // notes the int n kernels' attributes
  (void)cub_hist32;
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

    size_t cub_bytes = 0, cub32_bytes = 0;
    const int n32 = static_cast<int>(n);
    if constexpr (PAIRS)
    {
      BENCH_CK(cub::DeviceRadixSort::SortPairs(nullptr, cub_bytes, in.get(0), ref.get(), vin.get(), vref.get(), n));
      BENCH_CK(cub::DeviceRadixSort::SortPairs(nullptr, cub32_bytes, in.get(0), ref.get(), vin.get(), vref.get(), n32));
    }
    else
    {
      BENCH_CK(cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, in.get(0), ref.get(), n));
      BENCH_CK(cub::DeviceRadixSort::SortKeys(nullptr, cub32_bytes, in.get(0), ref.get(), n32));
    }
    size_t our_bytes = 0;
    ((our_bytes = std::max(our_bytes, Cs::scratch_bytes(n, sizeof(K), PAIRS ? 4 : 0))), ...);
    bench::DeviceBuffer<unsigned char> cub_tmp(std::max(cub_bytes, cub32_bytes));
    bench::DeviceBuffer<char> our_tmp(our_bytes);
    // wide: a long long n (64-bit offsets), else an int n.
    auto run_cub = [&](int i, K* kout, uint32_t* vo, bool wide) {
      size_t tb = wide ? cub_bytes : cub32_bytes;
      if constexpr (PAIRS)
      {
        if (wide) BENCH_CK(cub::DeviceRadixSort::SortPairs(cub_tmp.get(), tb, in.get(i), kout, vin.get(), vo, n));
        else BENCH_CK(cub::DeviceRadixSort::SortPairs(cub_tmp.get(), tb, in.get(i), kout, vin.get(), vo, n32));
      }
      else
      {
        (void)vo;
        if (wide) BENCH_CK(cub::DeviceRadixSort::SortKeys(cub_tmp.get(), tb, in.get(i), kout, n));
        else BENCH_CK(cub::DeviceRadixSort::SortKeys(cub_tmp.get(), tb, in.get(i), kout, n32));
      }
    };
    ref.poison();
    if (PAIRS) vref.poison();
    run_cub(0, ref.get(), vref.get(), true);
    BENCH_CK(cudaDeviceSynchronize());
    const std::vector<K> want = ref.to_host();
    std::vector<uint32_t> wantv;
    if (PAIRS) wantv = vref.to_host();
    const std::string bad = tune::check_cub(host, want, PAIRS ? &wantv : nullptr);
    if (!bad.empty())
    {
      bench::fail("cub", alg, type.c_str(), n, bytes, bad);
      continue;
    }
    auto same = [&]() -> std::string {
      if (std::memcmp(out.to_host().data(), want.data(), n * sizeof(K)) != 0) return "keys differ from CUB's";
      if (PAIRS && std::memcmp(vout.to_host().data(), wantv.data(), n * 4) != 0) return "values differ from CUB's";
      return "";
    };
    const std::vector<unsigned long long> prefixes = cpu_prefixes(host);

    // CUB's histogram phase alone, then its whole sort.
    double cub_hist_us = NAN;
    cub_hist.run(in.get(0), n);
    BENCH_CK(cudaGetLastError());
    BENCH_CK(cudaDeviceSynchronize());
    const std::string hbad = cub_hist.check(prefixes);
    if (!hbad.empty()) bench::fail("cub", "radix_histogram_phase", type.c_str(), n, n * long(sizeof(K)), hbad);
    else
    {
      cub_hist_us = bench::time_us([&](int i) { cub_hist.run(in.get(i), n); });
      char note[200];
      std::snprintf(note, sizeof note, "memsets + histogram %dx%d at %d blocks/SM x %d SMs + exclusive sum",
                    cub_hist.HT, int(CubHist<K, CV, unsigned long long>::P::HistogramPolicy::ITEMS_PER_THREAD),
                    cub_hist.occupancy, bench::state().sms);
      bench::row("cub", "radix_histogram_phase", type.c_str(), n, cub_hist_us, n * long(sizeof(K)), note);
    }
    const double cub_us = bench::time_us([&](int i) { run_cub(i, ref.get(), vref.get(), true); });
    bench::row("cub", alg, type.c_str(), n, cub_us, bytes, "cub::DeviceRadixSort, long long n (64-bit offsets)");
    rows().push_back({type, "cub (long long n)", n, cub_us, cub_hist_us});

    // CUB with an int n.
    if (with_int32n)
    {
    out.poison();
    if (PAIRS) vout.poison();
    run_cub(0, out.get(), vout.get(), false);
    BENCH_CK(cudaDeviceSynchronize());
    const std::string why = same();
    if (!why.empty()) bench::fail("cub-int32n", alg, type.c_str(), n, bytes, why);
    else
    {
      const double us = bench::time_us([&](int i) { run_cub(i, out.get(), vout.get(), false); });
      char note[96];
      std::snprintf(note, sizeof note, "int n (32-bit offsets); %.3fx cub", us / cub_us);
      bench::row("cub-int32n", alg, type.c_str(), n, us, bytes, note);
      rows().push_back({type, "cub-int32n (int n)", n, us, NAN});
    }
    }

    Case<K, PAIRS> c{type, alg, n, bytes, cub_us, in, vin, out, vout, our_tmp, prefixes, same};
    (Runner<Cs>::run(c), ...);
  }
}

// The parts: per type, the generated policy first, then CUB's effective
// shape (CUB's tile at CUB's blocks per SM), then the variants.
void part_u32k();
void part_f32k();
void part_u64k();
void part_u32p();
void part_hist_u32k();
void part_hist_f32k();
void part_hist_u64k();
void hist_checks();

// The ballot match (the generated kernels'); HMINB the histogram kernel's
// own __launch_bounds__ minimum (the generated code: MINB), HGRID its grid in
// blocks per SM (0: its occupancy, the runtime's), HVER 0 the old kernel.
template <int IPT, int MINB, int HMINB = MINB, int HGRID = 0, int HVER = 1>
using C384 = Config<384, IPT, MINB, 29, RANK_MATCH_BALLOT, HMINB, HGRID, HVER>;

// The histogram variants of a generated policy of IPT items, minblocks 3:
// the new kernel at the old grid (2 blocks/SM), the
// new without its prefetch at its occupancy, and (bounds the generated code
// does not emit) the new without prefetch at minblocks 4 and 5 at their
// occupancy (with it they spill).
template <int IPT>
using HistNew2 = HistOnly<C384<IPT, 3, 3, 2>>;
template <int IPT>
using HistNoPf = HistOnly<C384<IPT, 3, 3, 0, 2>>;
template <int IPT>
using HistNoPf4 = HistOnly<C384<IPT, 3, 4, 0, 2>>;
template <int IPT>
using HistNoPf5 = HistOnly<C384<IPT, 3, 5, 0, 2>>;

} // namespace shapes

#if RS_PART == 1
// uint32 keys. CUB (long long n): 384 x 19, 56 registers, 3 blocks/SM.
void shapes::part_u32k()
{
  compare<uint32_t, false,                     //
          C384<20, 3>,                         // generated policy
          C384<19, 3>>(201); // CUB's effective shape
}
#elif RS_PART == 2
// float32 keys. CUB: 384 x 18 (long long n; 56 registers, 3 blocks/SM),
// 384 x 19 (int n).
void shapes::part_f32k()
{
  compare<float, false,       //
          C384<20, 3>,        // generated policy
          C384<18, 3>,        // CUB's effective shape
          C384<19, 3>>(202); // CUB's int n shape
}
#elif RS_PART == 3
// uint64 keys. CUB: 384 x 15 (either n), 70 registers, 2 blocks/SM.
void shapes::part_u64k()
{
  compare<uint64_t, false,   //
          C384<15, 3>,       // generated policy
          C384<15, 2>>(203); // CUB's effective shape (2 blocks/SM)
}
#elif RS_PART == 4
// uint32 keys + uint32 values. CUB: 384 x 17 (long long n; 80 registers,
// 2 blocks/SM), 384 x 23 (int n).
void shapes::part_u32p()
{
  compare<uint32_t, true,    //
          C384<18, 3>,       // generated policy
          C384<17, 2>,       // CUB's effective shape
          C384<17, 3>>(204); // CUB's tile at our 3 blocks/SM
}
#elif RS_PART == 5
// The fast mode (--only hist): same seeds as the full parts.
void shapes::part_hist_u32k()
{
  compare<uint32_t, false, C384<20, 3>, HistNew2<20>, HistNoPf<20>, HistNoPf4<20>,
          HistNoPf5<20>>(201, false);
}

// hist_checks: the header's histogram kernel against the CPU on what the
// timed rows do not reach: every key type KeyTraits covers at its policy's
// block (384; 512 for 1- and 2-byte keys), bit windows, descending,
// partial tiles, sizes below a tile, grids of 1 and 7 blocks besides one
// wave. Each failure is a FAILED row; the last line says how many cases ran.
namespace shapes
{
// Every pass's exclusive digit prefixes over [begin, end) of the ordered bits.
template <typename K>
std::vector<unsigned long long> cpu_window_prefixes(const std::vector<K>& keys, int begin, int end, bool desc)
{
  using Bits = typename std::conditional<sizeof(K) == 8, uint64_t, uint32_t>::type;
  constexpr Bits SIGN = Bits(1) << (8 * sizeof(K) - 1);
  constexpr Bits ALL = sizeof(K) == 8 ? ~Bits(0) : Bits((uint64_t(1) << (8 * sizeof(K))) - 1);
  const int passes = (end - begin + 7) / 8;
  std::vector<unsigned long long> c(passes * 256, 0);
  for (const K& k : keys)
  {
    Bits b = 0;
    std::memcpy(&b, &k, sizeof(K));
    if (std::is_floating_point<K>::value) b = (b & SIGN) ? Bits(~b & ALL) : Bits(b ^ SIGN);
    else if (std::is_signed<K>::value) b ^= SIGN;
    if (desc) b = Bits(~b & ALL);
    for (int p = 0; p < passes; ++p)
    {
      const int shift = begin + 8 * p, bits = std::min(8, end - shift);
      ++c[p * 256 + ((b >> shift) & ((Bits(1) << bits) - 1))];
    }
  }
  for (int p = 0; p < passes; ++p)
  {
    unsigned long long sum = 0;
    for (int d = 0; d < 256; ++d)
    {
      const unsigned long long x = c[p * 256 + d];
      c[p * 256 + d] = sum;
      sum += x;
    }
  }
  return c;
}

template <int BT, typename K>
int check_type(const char* name, uint64_t salt)
{
  int cases = 0;
  constexpr int KB = 8 * sizeof(K);
  const long long tile = (long long)BT * (sizeof(K) >= 8 ? 8 : 16);
  const int wave = Config<BT, 1, 3>::template hist_blocks_per_sm<K>() * bench::state().sms;
  struct Window
  {
    int begin, end;
  };
  const Window windows[] = {{0, KB}, {3, 11}, {1, 7}, {KB / 2, KB}, {0, KB - 1}};
  for (long long n : {1ll, 1000ll, tile - 1, tile, tile + 1, 3 * tile + 17, 20 * tile, 1000003ll, (1ll << 22) + 5})
  {
    std::vector<K> host(static_cast<size_t>(n));
    uint64_t st = salt + static_cast<uint64_t>(n);
    for (auto& k : host)
    {
      const uint64_t r = bench::splitmix64(st);
      std::memcpy(&k, &r, sizeof(K));
      if (std::is_floating_point<K>::value && (r & 3) != 0)
        k = K(double(r >> 11) / double(1ull << 53)); // mostly [0, 1): crowded top digits
    }
    bench::DeviceBuffer<K> d(static_cast<size_t>(n));
    BENCH_CK(cudaMemcpy(d.get(), host.data(), n * sizeof(K), cudaMemcpyHostToDevice));
    bench::DeviceBuffer<unsigned long long> scratch(tune::kStateWords);
    const long long tiles = (n + tile - 1) / tile;
    for (const Window w : windows)
      for (bool desc : {false, true})
      {
        if (w.end > KB) continue;
        const std::vector<unsigned long long> want = cpu_window_prefixes(host, w.begin, w.end, desc);
        for (long long grid : {std::min(tiles, (long long)wave), 1ll, std::min(tiles, 7ll)})
        {
          BENCH_CK(cudaMemset(scratch.get(), 0, tune::kStateWords * 8));
          tune::k_hist<BT, 3, K><<<(unsigned)grid, BT>>>(d.get(), n, scratch.get(), w.begin, w.end, desc);
          BENCH_CK(cudaGetLastError());
          BENCH_CK(cudaDeviceSynchronize());
          std::vector<unsigned long long> got(want.size());
          BENCH_CK(cudaMemcpy(got.data(), scratch.get(), got.size() * 8, cudaMemcpyDeviceToHost));
          ++cases;
          if (got != want)
          {
            size_t i = 0;
            while (got[i] == want[i]) ++i;
            char why[200];
            std::snprintf(why, sizeof why, "histogram check: window [%d, %d)%s, grid %lld: prefix %zu is %llu, want %llu",
                          w.begin, w.end, desc ? " descending" : "", grid, i, got[i], want[i]);
            bench::fail("gocccl-kernels", "radix_histogram_check", name, n, n * long(sizeof(K)), why);
          }
        }
      }
  }
  return cases;
}
} // namespace shapes

void shapes::hist_checks()
{
  int cases = 0;
  cases += check_type<384, uint32_t>("uint32", 301);
  cases += check_type<384, int32_t>("int32", 302);
  cases += check_type<384, float>("float32", 303);
  cases += check_type<384, uint64_t>("uint64", 304);
  cases += check_type<384, int64_t>("int64", 305);
  cases += check_type<384, double>("float64", 306);
  cases += check_type<512, uint8_t>("uint8", 307);
  cases += check_type<512, int8_t>("int8", 308);
  cases += check_type<512, uint16_t>("uint16", 309);
  cases += check_type<512, int16_t>("int16", 310);
  std::printf("# radix_shapes: histogram checks: %d cases, %d failures so far\n", cases, bench::state().failures);
}
#elif RS_PART == 6
void shapes::part_hist_f32k()
{
  compare<float, false, C384<20, 3>, HistNew2<20>, HistNoPf<20>, HistNoPf4<20>,
          HistNoPf5<20>>(202, false);
}
#elif RS_PART == 7
void shapes::part_hist_u64k()
{
  compare<uint64_t, false, C384<15, 3>, HistNew2<15>, HistNoPf<15>, HistNoPf4<15>,
          HistNoPf5<15>>(203, false);
}
#else
// A part not built (radix_shapes.sh builds part 0 and the parts --only
// names) is a weak stub that says so.
#define RS_STUB(f)                                                                                          \
  __attribute__((weak)) void shapes::f()                                                                    \
  {                                                                                                          \
    std::fprintf(stderr, "radix_shapes: %s was not built (radix_shapes.sh --only)\n", #f);                 \
  }
RS_STUB(part_u32k)
RS_STUB(part_f32k)
RS_STUB(part_u64k)
RS_STUB(part_u32p)
RS_STUB(part_hist_u32k)
RS_STUB(part_hist_f32k)
RS_STUB(part_hist_u64k)
RS_STUB(hist_checks)
#undef RS_STUB

int main(int argc, char** argv)
{
  std::vector<char*> args(argv, argv + argc);
  bool sizes_given = false;
  for (int i = 1; i < argc; ++i)
    if (!std::strcmp(argv[i], "--sizes")) sizes_given = true;
  char sizes_flag[] = "--sizes", sizes_default[] = "24,28";
  if (!sizes_given)
  {
    args.push_back(sizes_flag);
    args.push_back(sizes_default);
  }
  bench::init(static_cast<int>(args.size()), args.data(), "radix_shapes");
  std::printf("# CUB_VERSION %d\n", CUB_VERSION);
  if (bench::wants("u32k")) shapes::part_u32k();
  if (bench::wants("f32k")) shapes::part_f32k();
  if (bench::wants("u64k")) shapes::part_u64k();
  if (bench::wants("u32p")) shapes::part_u32p();
  // The fast mode only when --only names it.
  if (!bench::state().only.empty() && bench::wants("hist"))
  {
    shapes::hist_checks();
    shapes::part_hist_u32k();
    shapes::part_hist_f32k();
    shapes::part_hist_u64k();
  }

  // Every kernel's registers, local memory, shared memory and blocks per SM.
  std::printf("# kernel\tname\tthreads\tregisters\tlocal_bytes\tstatic_smem_bytes\tblocks_per_SM\n");
  for (const auto& k : shapes::kernels())
  {
    cudaFuncAttributes a;
    BENCH_CK(cudaFuncGetAttributes(&a, k.fn));
    int blocks = 0;
    BENCH_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k.fn, k.threads, 0));
    std::printf("# kernel\t%s\t%d\t%d\t%zu\t%zu\t%d\n", k.name.c_str(), k.threads, a.numRegs, a.localSizeBytes,
                a.sharedSizeBytes, blocks);
  }

  // Summary: per type CUB first, then each configuration by its geometric
  // mean over the sizes of time / CUB's (long long n).
  std::map<std::string, double> cub_us;
  for (const auto& r : shapes::rows())
    if (r.config == "cub (long long n)") cub_us[r.type + "/" + std::to_string(r.n)] = r.us;
  std::map<std::string, std::map<std::string, std::vector<const shapes::Row*>>> by;
  std::vector<std::string> order;
  for (const auto& r : shapes::rows())
  {
    if (!by.count(r.type)) order.push_back(r.type);
    by[r.type][r.config].push_back(&r);
  }
  std::printf("# summary\ttype\tconfig\tgeomean_vs_cub\tper size: 2^k total_us (x cub) hist_us rest_us (x cub's rest)\n");
  for (const auto& type : order)
  {
    std::vector<std::pair<double, std::string>> lines;
    for (const auto& [cfg, rs] : by[type])
    {
      double lg = 0;
      int m = 0;
      std::string per;
      for (const auto* r : rs)
      {
        const double c = cub_us[type + "/" + std::to_string(r->n)];
        const double* ch = nullptr;
        for (const auto& q : shapes::rows())
          if (q.type == type && q.n == r->n && q.config == "cub (long long n)") ch = &q.hist_us;
        char b[200];
        if (std::isnan(r->us))
          std::snprintf(b, sizeof b, "  2^%d: hist %.1f (x%.3f)", int(std::log2(double(r->n))), r->hist_us,
                        ch ? r->hist_us / *ch : NAN);
        else if (std::isnan(r->hist_us))
        {
          lg += std::log(r->us / c);
          ++m;
          std::snprintf(b, sizeof b, "  2^%d: %.1f (x%.3f)", int(std::log2(double(r->n))), r->us, r->us / c);
        }
        else
        {
          lg += std::log(r->us / c);
          ++m;
          const double rest = r->us - r->hist_us, cub_rest = ch ? c - *ch : NAN;
          std::snprintf(b, sizeof b, "  2^%d: %.1f (x%.3f) hist %.1f rest %.1f (x%.3f)", int(std::log2(double(r->n))),
                        r->us, r->us / c, r->hist_us, rest, rest / cub_rest);
        }
        per += b;
      }
      const double g = m ? std::exp(lg / m) : NAN;
      lines.push_back({std::isnan(g) ? 1e9 : g, cfg + "\t" + (std::isnan(g) ? std::string("-") : std::to_string(g).substr(0, 5)) + "\t" + per});
    }
    std::stable_sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [g, s] : lines) std::printf("# summary\t%s\t%s\n", type.c_str(), s.c_str());
  }
  return bench::finish();
}
#endif
