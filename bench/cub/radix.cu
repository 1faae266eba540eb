// radix.cu: LSD radix sorts side by side on the same inputs, one TSV row
// each (bench.cuh's format):
//
//   cub             sort_keys   cub::DeviceRadixSort::SortKeys (temp storage allocated beforehand)
//   cub             sort_pairs  cub::DeviceRadixSort::SortPairs, uint32 values (the input positions)
//   gocccl-kernels  sort_keys, sort_pairs
//                   gocccl::radix_sort_* (Onesweep) behind extern "C" entry
//                   points, dispatched as the Go runtime does
//                   (runtime/radix_gpu.go): init, histogram, one onesweep
//                   launch per 8-bit pass (n < 2^29: one portion)
//                   alternating between out and a
//                   scratch copy so that the last pass writes out; the
//                   single-tile kernel for n <= tile
//
// for uint32, float32 and uint64 keys. Checks before timing: CUB's keys
// ascending and a permutation of the input (sums of mixed bits), its values
// the positions of its keys; gocccl's output byte for byte equal to CUB's
// (both are stable). bytes_moved: 2 n sizeof(K) (+ 2 n 4 for the values).
//
// Usage: radix [--runs R] [--sizes 10,16,20,24,28] [--seed S]

#include "bench.cuh"

#include <gocccl/radix_sort.cuh>

#include <cub/device/device_radix_sort.cuh>

#include <string>
#include <vector>

#define BENCH_KEYS(NAME, BT, IPT, K)                                                                               \
  extern "C" __global__ void __launch_bounds__(BT) NAME##_init(void* s, long long w)                               \
  {                                                                                                                \
    gocccl::radix_sort_init<BT, IPT, K>(s, w);                                                                     \
  }                                                                                                                \
  extern "C" __global__ void __launch_bounds__(BT)                                                                 \
    NAME##_histogram(const K* k, long long n, void* s, long long b, long long e, bool d)                           \
  {                                                                                                                \
    gocccl::radix_sort_histogram<BT, IPT, K>(k, n, s, b, e, d);                                                    \
  }                                                                                                                \
  extern "C" __global__ void __launch_bounds__(BT)                                                                 \
    NAME##_onesweep(const K* ki, K* ko, long long n, void* s, long long p, long long b, long long e, bool d)       \
  {                                                                                                                \
    gocccl::radix_sort_keys_onesweep<BT, IPT, K>(ki, ko, n, s, p, b, e, d);                                        \
  }                                                                                                                \
  extern "C" __global__ void __launch_bounds__(BT)                                                                 \
    NAME##_single(const K* ki, K* ko, long long n, long long b, long long e, bool d)                               \
  {                                                                                                                \
    gocccl::radix_sort_keys_single<BT, IPT, K>(ki, ko, n, b, e, d);                                                \
  }

#define BENCH_PAIRS(NAME, BT, IPT, K, V)                                                                           \
  extern "C" __global__ void __launch_bounds__(BT) NAME##_init(void* s, long long w)                               \
  {                                                                                                                \
    gocccl::radix_sort_init<BT, IPT, K, V>(s, w);                                                                  \
  }                                                                                                                \
  extern "C" __global__ void __launch_bounds__(BT)                                                                 \
    NAME##_histogram(const K* k, long long n, void* s, long long b, long long e, bool d)                           \
  {                                                                                                                \
    gocccl::radix_sort_histogram<BT, IPT, K, V>(k, n, s, b, e, d);                                                 \
  }                                                                                                                \
  extern "C" __global__ void __launch_bounds__(BT) NAME##_onesweep(                                                \
    const K* ki, K* ko, const V* vi, V* vo, long long n, void* s, long long p, long long b, long long e, bool d)  \
  {                                                                                                                \
    gocccl::radix_sort_pairs_onesweep<BT, IPT, K, V>(ki, ko, vi, vo, n, s, p, b, e, d);                            \
  }                                                                                                                \
  extern "C" __global__ void __launch_bounds__(BT)                                                                 \
    NAME##_single(const K* ki, K* ko, const V* vi, V* vo, long long n, long long b, long long e, bool d)           \
  {                                                                                                                \
    gocccl::radix_sort_pairs_single<BT, IPT, K, V>(ki, ko, vi, vo, n, b, e, d);                                    \
  }

// The policies of internal/algo.RadixKeysPolicy / RadixPairsPolicy (sm_90).
BENCH_KEYS(bench_keys_u32, 384, 20, uint32_t)
BENCH_KEYS(bench_keys_u64, 384, 15, uint64_t)
BENCH_PAIRS(bench_pairs_u32, 384, 18, uint32_t, uint32_t)
BENCH_KEYS(bench_keys_f32, 384, 20, float)
BENCH_PAIRS(bench_pairs_f32, 384, 18, float, uint32_t)
BENCH_PAIRS(bench_pairs_u64, 384, 15, uint64_t, uint32_t)

// runtime/radix_gpu.go: state words, then 32-bit look-back words of one
// portion (< 2^29 items: these sizes are one portion, one launch per pass).
static const int kStateWords = 8 * 256 + 2 * 256 + 8;

/// gocccl's dispatch of a keys-only Run (runtime/radix_gpu.go).
template <typename K, int BT, int IPT, void (*INIT)(void*, long long),
          void (*HIST)(const K*, long long, void*, long long, long long, bool),
          void (*SWEEP)(const K*, K*, long long, void*, long long, long long, long long, bool),
          void (*SINGLE)(const K*, K*, long long, long long, long long, bool)>
struct OursKeys
{
  static constexpr long long TILE = BT * IPT;
  static size_t scratch_bytes(long long n)
  {
    long long tiles = (n + TILE - 1) / TILE;
    size_t b = 8 * (kStateWords + (tiles * 256 + 1) / 2);
    return (b + 255) / 256 * 256 + n * sizeof(K);
  }
  void run(const K* kin, K* kout, const void*, void*, long long n, char* tmp) const
  {
    const long long begin = 0, end = 8 * sizeof(K);
    const int passes = int((end - begin + 7) / 8);
    if (n <= TILE)
    {
      SINGLE<<<1, BT>>>(kin, kout, n, begin, end, false);
      return;
    }
    long long tiles = (n + TILE - 1) / TILE;
    long long words = kStateWords + (tiles * 256 + 1) / 2;
    size_t keys_at = (8 * words + 255) / 256 * 256;
    INIT<<<(unsigned)std::min<long long>((words + BT - 1) / BT, bench::state().sms * 40), BT>>>(tmp, words);
    HIST<<<(unsigned)std::min<long long>((n + BT * 8 - 1) / (BT * 8), 2 * bench::state().sms), BT>>>(kin, n, tmp, begin, end, false);
    K* alt = reinterpret_cast<K*>(tmp + keys_at);
    const K* src = kin;
    for (int p = 0; p < passes; ++p)
    {
      K* dst = (passes - 1 - p) % 2 == 1 ? alt : kout;
      SWEEP<<<(unsigned)tiles, BT>>>(src, dst, n, tmp, p, begin, end, false);
      src = dst;
    }
  }
};

/// gocccl's dispatch of a pairs Run.
template <typename K, typename V, int BT, int IPT, void (*INIT)(void*, long long),
          void (*HIST)(const K*, long long, void*, long long, long long, bool),
          void (*SWEEP)(const K*, K*, const V*, V*, long long, void*, long long, long long, long long, bool),
          void (*SINGLE)(const K*, K*, const V*, V*, long long, long long, long long, bool)>
struct OursPairs
{
  static constexpr long long TILE = BT * IPT;
  static size_t scratch_bytes(long long n)
  {
    long long tiles = (n + TILE - 1) / TILE;
    size_t b = 8 * (kStateWords + (tiles * 256 + 1) / 2);
    b = (b + 255) / 256 * 256 + n * sizeof(K);
    return (b + 255) / 256 * 256 + n * sizeof(V);
  }
  void run(const K* kin, K* kout, const void* vin_, void* vout_, long long n, char* tmp) const
  {
    const V* vin = static_cast<const V*>(vin_);
    V* vout = static_cast<V*>(vout_);
    const long long begin = 0, end = 8 * sizeof(K);
    const int passes = int((end - begin + 7) / 8);
    if (n <= TILE)
    {
      SINGLE<<<1, BT>>>(kin, kout, vin, vout, n, begin, end, false);
      return;
    }
    long long tiles = (n + TILE - 1) / TILE;
    long long words = kStateWords + (tiles * 256 + 1) / 2;
    size_t keys_at = (8 * words + 255) / 256 * 256;
    size_t values_at = (keys_at + n * sizeof(K) + 255) / 256 * 256;
    INIT<<<(unsigned)std::min<long long>((words + BT - 1) / BT, bench::state().sms * 40), BT>>>(tmp, words);
    HIST<<<(unsigned)std::min<long long>((n + BT * 8 - 1) / (BT * 8), 2 * bench::state().sms), BT>>>(kin, n, tmp, begin, end, false);
    K* alt_k = reinterpret_cast<K*>(tmp + keys_at);
    V* alt_v = reinterpret_cast<V*>(tmp + values_at);
    const K* sk = kin;
    const V* sv = vin;
    for (int p = 0; p < passes; ++p)
    {
      bool to_alt = (passes - 1 - p) % 2 == 1;
      K* dk = to_alt ? alt_k : kout;
      V* dv = to_alt ? alt_v : vout;
      SWEEP<<<(unsigned)tiles, BT>>>(sk, dk, sv, dv, n, tmp, p, begin, end, false);
      sk = dk;
      sv = dv;
    }
  }
};


// mix hashes a key's bits, for a multiset check by sums.
template <typename K>
uint64_t mix(K k)
{
  uint64_t s = 0;
  std::memcpy(&s, &k, sizeof(K));
  return bench::splitmix64(s);
}

// check_cub returns "" when keys is the ascending sort of in and, for
// pairs, in[vals[i]] == keys[i].
template <typename K>
std::string check_cub(const std::vector<K>& in, const std::vector<K>& keys, const std::vector<uint32_t>* vals)
{
  uint64_t a = 0, b = 0;
  for (size_t i = 0; i < in.size(); ++i)
  {
    a += mix(in[i]);
    b += mix(keys[i]);
    if (i > 0 && keys[i] < keys[i - 1]) return "not sorted at " + std::to_string(i);
    if (vals && ((*vals)[i] >= in.size() || std::memcmp(&in[(*vals)[i]], &keys[i], sizeof(K)) != 0))
      return "value " + std::to_string(i) + " is not the position of its key";
  }
  return a == b ? "" : "keys are not a permutation of the input";
}

template <typename K, bool PAIRS, typename Ours>
void run_type(const Ours& ours, uint64_t salt)
{
  using V = uint32_t;
  const char* type = bench::type_name<K>();
  const char* alg = PAIRS ? "sort_pairs" : "sort_keys";
  for (long long n : bench::sizes())
  {
    const std::vector<K> host = bench::random_items<K>(n, salt);
    std::vector<V> idx(static_cast<size_t>(n));
    for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<V>(i);
    bench::Rotation<K> in(host);
    bench::DeviceBuffer<V> vin(PAIRS ? static_cast<size_t>(n) : 0);
    if (PAIRS) BENCH_CK(cudaMemcpy(vin.get(), idx.data(), n * sizeof(V), cudaMemcpyHostToDevice));
    bench::DeviceBuffer<K> ref(static_cast<size_t>(n)), out(static_cast<size_t>(n));
    bench::DeviceBuffer<V> vref(PAIRS ? static_cast<size_t>(n) : 0), vout(PAIRS ? static_cast<size_t>(n) : 0);
    const long long bytes = 2ll * n * static_cast<long long>(sizeof(K) + (PAIRS ? sizeof(V) : 0));
    const char* note = PAIRS ? "uint32 values" : "";

    size_t cub_bytes = 0;
    if (PAIRS) BENCH_CK(cub::DeviceRadixSort::SortPairs(nullptr, cub_bytes, in.get(0), ref.get(), vin.get(), vref.get(), n));
    else BENCH_CK(cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, in.get(0), ref.get(), n));
    bench::DeviceBuffer<unsigned char> cub_tmp(cub_bytes);
    bench::DeviceBuffer<char> our_tmp(ours.scratch_bytes(n));
    auto run_cub = [&](int i) {
      size_t tb = cub_bytes;
      if (PAIRS)
        BENCH_CK(cub::DeviceRadixSort::SortPairs(cub_tmp.get(), tb, in.get(i), ref.get(), vin.get(), vref.get(), n));
      else BENCH_CK(cub::DeviceRadixSort::SortKeys(cub_tmp.get(), tb, in.get(i), ref.get(), n));
    };
    auto run_ours = [&](int i) { ours.run(in.get(i), out.get(), vin.get(), vout.get(), n, our_tmp.get()); };

    ref.poison();
    if (PAIRS) vref.poison();
    run_cub(0);
    BENCH_CK(cudaDeviceSynchronize());
    const std::vector<K> want = ref.to_host();
    std::vector<V> wantv;
    if (PAIRS) wantv = vref.to_host();
    std::string bad = check_cub(host, want, PAIRS ? &wantv : nullptr);
    const bool cub_ok = bad.empty();
    if (!cub_ok) bench::fail("cub", alg, type, n, bytes, bad);
    else bench::row("cub", alg, type, n, bench::time_us(run_cub), bytes, note);

    out.poison();
    if (PAIRS) vout.poison();
    run_ours(0);
    BENCH_CK(cudaGetLastError());
    BENCH_CK(cudaDeviceSynchronize());
    if (!cub_ok) bad = "no reference: CUB's check failed";
    else if (std::memcmp(out.to_host().data(), want.data(), n * sizeof(K)) != 0) bad = "keys differ from CUB's";
    else if (PAIRS && std::memcmp(vout.to_host().data(), wantv.data(), n * sizeof(V)) != 0) bad = "values differ from CUB's";
    if (!bad.empty()) bench::fail("gocccl-kernels", alg, type, n, bytes, bad);
    else
      bench::row("gocccl-kernels", alg, type, n, bench::time_us(run_ours), bytes,
                 std::string(note) + (PAIRS ? "; " : "") + "gocccl templates, Go runtime's dispatch in C++");
  }
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "radix");
  std::printf("# CUB_VERSION %d\n", CUB_VERSION);
  OursKeys<uint32_t, 256, 16, bench_keys_u32_init, bench_keys_u32_histogram, bench_keys_u32_onesweep,
           bench_keys_u32_single>
    k32;
  OursKeys<float, 256, 16, bench_keys_f32_init, bench_keys_f32_histogram, bench_keys_f32_onesweep,
           bench_keys_f32_single>
    kf32;
  OursKeys<uint64_t, 256, 12, bench_keys_u64_init, bench_keys_u64_histogram, bench_keys_u64_onesweep,
           bench_keys_u64_single>
    k64;
  OursPairs<uint32_t, uint32_t, 256, 16, bench_pairs_u32_init, bench_pairs_u32_histogram, bench_pairs_u32_onesweep,
            bench_pairs_u32_single>
    p32;
  OursPairs<float, uint32_t, 256, 16, bench_pairs_f32_init, bench_pairs_f32_histogram, bench_pairs_f32_onesweep,
            bench_pairs_f32_single>
    pf32;
  OursPairs<uint64_t, uint32_t, 256, 12, bench_pairs_u64_init, bench_pairs_u64_histogram, bench_pairs_u64_onesweep,
            bench_pairs_u64_single>
    p64;
  run_type<uint32_t, false>(k32, 1);
  run_type<uint32_t, true>(p32, 2);
  run_type<float, false>(kf32, 3);
  run_type<float, true>(pf32, 4);
  run_type<uint64_t, false>(k64, 5);
  run_type<uint64_t, true>(p64, 6);
  return bench::finish();
}
