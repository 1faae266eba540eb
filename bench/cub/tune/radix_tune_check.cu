// radix_tune_check.cu: correctness checks of the radix sort kernels at the
// policies internal/algo.RadixKeysPolicy / RadixPairsPolicy pick on sm_90,
// and at small portions (several onesweep launches per pass), against a CPU
// stable sort by the windowed ordered bits: every key type, keys and pairs
// (values: the input positions, so stability is checked exactly), values of
// 4, 32 and 200 bytes, bit windows (full, sub-byte 3..11, empty, high),
// ascending and descending, random / few distinct / constant keys (one-digit
// tiles: the short-circuit path), float specials, sizes around the tile.
// --big adds n = 2^31 + 4097 uint32 keys and pairs (64-bit indices, 5
// portions) against cub::DeviceRadixSort. --quick-check: fewer sizes and one
// large case per type (about a tenth of the time).
#include "radix_tune.cuh"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace
{
using tune::Config;
using tune::NoValues;

template <int BYTES> struct UintOf;
template <> struct UintOf<1> { using type = uint8_t; };
template <> struct UintOf<2> { using type = uint16_t; };
template <> struct UintOf<4> { using type = uint32_t; };
template <> struct UintOf<8> { using type = uint64_t; };

// The ordered bits of k in the window, as the kernels compare them.
template <typename K>
uint64_t ordered(K k, bool desc, int begin, int end)
{
  using Bits = typename UintOf<sizeof(K)>::type;
  constexpr Bits SIGN = Bits(Bits(1) << (8 * sizeof(K) - 1));
  Bits b;
  std::memcpy(&b, &k, sizeof(K));
  if (std::is_floating_point<K>::value) b = (b & SIGN) ? Bits(~b) : Bits(b ^ SIGN);
  else if (std::is_signed<K>::value) b = Bits(b ^ SIGN);
  if (desc) b = Bits(~b);
  const int w = end - begin;
  if (w == 0) return 0;
  const uint64_t v = static_cast<uint64_t>(b) >> begin;
  return w >= 64 ? v : (v & ((1ull << w) - 1));
}

template <int N>
struct Blob // a value of N bytes that carries its input position
{
  uint32_t index;
  unsigned char pad[N - 4];
};

template <typename V> uint32_t index_of(const V& v) { return static_cast<uint32_t>(v); }
template <int N> uint32_t index_of(const Blob<N>& v) { return v.index; }
template <typename V> V make_value(uint32_t i) { return static_cast<V>(i); }
template <> Blob<32> make_value<Blob<32>>(uint32_t i) { Blob<32> b; b.index = i; std::memset(b.pad, int(i & 0xff), sizeof b.pad); return b; }
template <> Blob<200> make_value<Blob<200>>(uint32_t i) { Blob<200> b; b.index = i; std::memset(b.pad, int(i & 0xff), sizeof b.pad); return b; }

template <typename K>
std::vector<K> make_keys(long long n, int kind, uint64_t salt)
{
  std::vector<K> v = bench::random_items<K>(n, salt);
  using Bits = typename UintOf<sizeof(K)>::type;
  uint64_t s = salt;
  for (auto& x : v)
  {
    Bits b;
    std::memcpy(&b, &x, sizeof(K));
    const uint64_t r = bench::splitmix64(s);
    if (kind == 1) b = Bits(r % 5 == 0 ? b : Bits(r & 3) << (4 * sizeof(K))); // few distinct values
    if (kind == 2) b = Bits(0x5a5a5a5a5a5a5a5aull);                       // constant
    std::memcpy(&x, &b, sizeof(K));
  }
  if (std::is_floating_point<K>::value && kind == 0 && n > 16)
  {
    const K sp[] = {K(0), -K(0), std::numeric_limits<K>::infinity(), -std::numeric_limits<K>::infinity(),
                    std::numeric_limits<K>::quiet_NaN(), -std::numeric_limits<K>::quiet_NaN(), K(-1), K(1)};
    for (size_t i = 0; i < sizeof sp / sizeof sp[0]; ++i) v[(i * 7919) % n] = sp[i];
  }
  return v;
}

int checks = 0;
bool quick_all = false; // --quick-check

template <typename C, typename K, typename V>
void check_one(const char* what, long long n, int kind, int begin, int end, bool desc)
{
  constexpr bool PAIRS = !std::is_same<V, NoValues>::value;
  using VV = typename std::conditional<PAIRS, V, uint32_t>::type;
  const std::vector<K> keys = make_keys<K>(n, kind, 7 + n + kind * 3 + begin * 101 + end * 13 + desc);
  std::vector<uint32_t> idx(static_cast<size_t>(n));
  std::iota(idx.begin(), idx.end(), 0u);
  std::stable_sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) {
    return ordered(keys[a], desc, begin, end) < ordered(keys[b], desc, begin, end);
  });
  std::vector<VV> vals(PAIRS ? n : 0);
  for (size_t i = 0; i < vals.size(); ++i) vals[i] = make_value<VV>(static_cast<uint32_t>(i));

  bench::DeviceBuffer<K> kin(n), kout(n);
  bench::DeviceBuffer<VV> vin(PAIRS ? n : 0), vout(PAIRS ? n : 0);
  BENCH_CK(cudaMemcpy(kin.get(), keys.data(), n * sizeof(K), cudaMemcpyHostToDevice));
  if (PAIRS) BENCH_CK(cudaMemcpy(vin.get(), vals.data(), n * sizeof(VV), cudaMemcpyHostToDevice));
  kout.poison();
  if (PAIRS) vout.poison();
  bench::DeviceBuffer<char> tmp(C::scratch_bytes(n, sizeof(K), PAIRS ? sizeof(VV) : 0));
  bench::poison(tmp.get(), tmp.size()); // stale scratch must not matter
  C::template run<K, V>(kin.get(), kout.get(), reinterpret_cast<const V*>(vin.get()), reinterpret_cast<V*>(vout.get()),
                        n, tmp.get(), begin, end, desc);
  BENCH_CK(cudaGetLastError());
  BENCH_CK(cudaDeviceSynchronize());
  const std::vector<K> got = kout.to_host();
  std::vector<VV> gotv;
  if (PAIRS) gotv = vout.to_host();
  ++checks;
  for (long long i = 0; i < n; ++i)
  {
    const bool kbad = std::memcmp(&got[i], &keys[idx[i]], sizeof(K)) != 0;
    const bool vbad = PAIRS && (index_of(gotv[i]) != index_of(vals[idx[i]]) || std::memcmp(&gotv[i], &vals[idx[i]], sizeof(VV)) != 0);
    if (kbad || vbad)
    {
      char msg[256];
      std::snprintf(msg, sizeof msg, "%s %s n=%lld kind=%d bits [%d,%d) %s: %s differs at %lld", what,
                    C::name().c_str(), n, kind, begin, end, desc ? "desc" : "asc", kbad ? "key" : "value", i);
      bench::fail("gocccl-kernels", PAIRS ? "sort_pairs" : "sort_keys", "check", n, 0, msg);
      return;
    }
  }
}

template <typename C, typename K, typename V>
void check_type(const char* what, bool quick = false)
{
  constexpr int B = 8 * sizeof(K);
  const long long T = C::TILE;
  const int windows[][3] = {{0, B, 0}, {0, B, 1}, {3, std::min(11, B), 0}, {5, 5, 0}, {B / 2 - 3, B - 1, 1}, {1, B, 1}};
  std::vector<long long> sizes = {1, 777, T - 1, T, T + 1, 3 * T + 5, 200003};
  quick = quick || quick_all;
  if (quick) sizes = {T + 1, 200003};
  const int before = bench::state().failures;
  for (long long n : sizes)
    for (const auto& w : windows)
      for (int kind = 0; kind < 3; ++kind)
        check_one<C, K, V>(what, n, kind, w[0], w[1], w[2] != 0);
  // Large: several thousand tiles, random and few-distinct keys.
  check_one<C, K, V>(what, (1 << 22) + 17, 0, 0, B, false);
  if (!quick_all)
  {
    check_one<C, K, V>(what, (1 << 22) + 17, 1, 3, std::min(11, B), true);
    check_one<C, K, V>(what, (1 << 22) + 17, 2, 0, B, true);
  }
  std::printf("# check %-28s %-28s %s\n", what, C::name().c_str(), bench::state().failures == before ? "ok" : "FAILED");
  std::fflush(stdout);
}

// n = 2^31 + 4097 against CUB (64-bit indexing, several portions).
void check_big()
{
  using C = Config<384, 20, 3>;
  const long long n = (1ll << 31) + 4097;
  std::vector<uint32_t> host = bench::random_items<uint32_t>(n, 4242);
  bench::DeviceBuffer<uint32_t> kin(n), kout(n), ref(n);
  BENCH_CK(cudaMemcpy(kin.get(), host.data(), n * 4, cudaMemcpyHostToDevice));
  {
    size_t cb = 0;
    BENCH_CK(cub::DeviceRadixSort::SortKeys(nullptr, cb, kin.get(), ref.get(), n));
    bench::DeviceBuffer<char> ct(cb);
    BENCH_CK(cub::DeviceRadixSort::SortKeys(ct.get(), cb, kin.get(), ref.get(), n));
    bench::DeviceBuffer<char> tmp(C::scratch_bytes(n, 4, 0));
    kout.poison();
    C::run<uint32_t, NoValues>(kin.get(), kout.get(), nullptr, nullptr, n, tmp.get(), 0, 32, false);
    BENCH_CK(cudaGetLastError());
    BENCH_CK(cudaDeviceSynchronize());
  }
  ++checks;
  const bool ok = std::memcmp(kout.to_host().data(), ref.to_host().data(), n * 4) == 0;
  if (!ok) bench::fail("gocccl-kernels", "sort_keys", "uint32", n, 0, "big keys differ from CUB's");
  std::printf("# check big keys uint32 n=%lld %s\n", n, ok ? "ok" : "FAILED");
  std::fflush(stdout);

  // Pairs, bits [3, 27) descending, values the positions.
  using P = Config<384, 18, 3>;
  std::vector<uint32_t> idx(static_cast<size_t>(n));
  std::iota(idx.begin(), idx.end(), 0u);
  bench::DeviceBuffer<uint32_t> vin(n), vout(n), vref(n);
  BENCH_CK(cudaMemcpy(vin.get(), idx.data(), n * 4, cudaMemcpyHostToDevice));
  {
    size_t cb = 0;
    BENCH_CK(cub::DeviceRadixSort::SortPairsDescending(nullptr, cb, kin.get(), ref.get(), vin.get(), vref.get(), n, 3, 27));
    bench::DeviceBuffer<char> ct(cb);
    BENCH_CK(cub::DeviceRadixSort::SortPairsDescending(ct.get(), cb, kin.get(), ref.get(), vin.get(), vref.get(), n, 3, 27));
    bench::DeviceBuffer<char> tmp(P::scratch_bytes(n, 4, 4));
    kout.poison();
    vout.poison();
    P::run<uint32_t, uint32_t>(kin.get(), kout.get(), vin.get(), vout.get(), n, tmp.get(), 3, 27, true);
    BENCH_CK(cudaGetLastError());
    BENCH_CK(cudaDeviceSynchronize());
  }
  ++checks;
  const bool okp = std::memcmp(kout.to_host().data(), ref.to_host().data(), n * 4) == 0 &&
                   std::memcmp(vout.to_host().data(), vref.to_host().data(), n * 4) == 0;
  if (!okp) bench::fail("gocccl-kernels", "sort_pairs", "uint32", n, 0, "big pairs differ from CUB's");
  std::printf("# check big pairs uint32 [3,27) desc n=%lld %s\n", n, okp ? "ok" : "FAILED");
  std::fflush(stdout);
}
} // namespace

void tune::run_checks(bool big, bool quick)
{
  quick_all = quick;
  // The policies (internal/algo/radix.go, minimum blocks included) for every
  // key size, keys and pairs, with the default (ballot) match.
  check_type<Config<384, 20, 3>, uint32_t, NoValues>("keys uint32");
  check_type<Config<384, 20, 3>, float, NoValues>("keys float32");
  check_type<Config<384, 20, 3>, int32_t, NoValues>("keys int32", true);
  check_type<Config<384, 15, 3>, uint64_t, NoValues>("keys uint64");
  check_type<Config<384, 15, 3>, double, NoValues>("keys float64");
  check_type<Config<384, 15, 3>, int64_t, NoValues>("keys int64", true);
  check_type<Config<512, 19>, uint8_t, NoValues>("keys uint8");
  check_type<Config<512, 19>, int16_t, NoValues>("keys int16");
  check_type<Config<384, 18, 3>, uint32_t, uint32_t>("pairs uint32+uint32");
  check_type<Config<384, 18, 3>, float, uint32_t>("pairs float32+uint32", true);
  check_type<Config<384, 18, 3>, uint8_t, uint32_t>("pairs uint8+uint32", true);
  check_type<Config<512, 17>, int16_t, uint16_t>("pairs int16+uint16", true);
  check_type<Config<384, 15, 2>, uint64_t, uint32_t>("pairs uint64+uint32");
  check_type<Config<384, 15, 2>, int32_t, uint64_t>("pairs int32+uint64", true);
  check_type<Config<256, 4>, double, Blob<32>>("pairs float64+32B", true);  // 256 x min(16, 36864/(256*36))
  check_type<Config<256, 1>, uint32_t, Blob<200>>("pairs uint32+200B", true); // values from registers
  // Small portions: several launches per pass, carries between them.
  check_type<Config<384, 18, 1, 16>, uint32_t, uint32_t>("pairs uint32 portions", true);
  check_type<Config<384, 15, 1, 17>, uint64_t, NoValues>("keys uint64 portions", true);
  // The tuning sweep's other shapes.
  check_type<Config<512, 19, 2>, uint32_t, NoValues>("keys uint32 minblocks", true);
  check_type<Config<768, 7>, uint64_t, NoValues>("keys uint64 768", true);
  // The other matches (the sweep compares them with CUB as well).
  check_type<Config<384, 20, 1, 29, RANK_MATCH_NATIVE>, int32_t, NoValues>("keys int32 match.any", true);
  check_type<Config<384, 18, 1, 29, RANK_MATCH_NATIVE>, uint32_t, uint32_t>("pairs uint32 match.any", true);
  check_type<Config<384, 20, 3, 29, RANK_MATCH_ATOMIC_OR>, int32_t, NoValues>("keys int32 atomic-or", true);
  check_type<Config<384, 15, 2, 29, RANK_MATCH_ATOMIC_OR>, uint64_t, uint32_t>("pairs uint64 atomic-or", true);
  check_type<Config<256, 8, 1, 29, RANK_MATCH_ATOMIC_OR>, uint8_t, NoValues>("keys uint8 atomic-or 256", true);
  if (big) check_big();
  std::printf("# %d checks run\n", checks);
}
