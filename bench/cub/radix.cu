// radix.cu: gocccl's Onesweep radix sort kernels against
// cub::DeviceRadixSort::SortKeys / SortPairs, in one process, on the same
// inputs.
//
// For n = 2^20, 2^24, 2^28: uint32 keys, uint64 keys, uint32/uint32 pairs.
//   cub     cub::DeviceRadixSort (temp storage allocated beforehand)
//   gocccl  gocccl::radix_sort_* behind extern "C" entry points, dispatched as
//           the Go runtime does (runtime/radix_gpu.go): init, histogram, one
//           onesweep launch per 8-bit pass alternating between out and a
//           scratch copy so that the last pass writes out; single-tile kernel
//           for n <= tile
// Each figure is the median of kRuns event-timed calls after warm-up; inputs
// rotate over several buffers that together exceed the L2 cache. Results are
// checked: gocccl's output must equal CUB's byte for byte (both are stable).
//
// Output: TSV rows  impl<TAB>Algorithm<TAB>type<TAB>n<TAB>median_us<TAB>bytes_moved
// (bytes_moved: keys (and values) read once and written once).
//
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -Ikernels/include bench/cub/radix.cu -o radix_bench

#include <gocccl/radix_sort.cuh>

#include <cub/device/device_radix_sort.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

static void check_cuda(cudaError_t err, const char* what, const char* file, int line)
{
  if (err != cudaSuccess)
  {
    std::fprintf(stderr, "%s:%d: CUDA error %s (%s) in %s\n", file, line, cudaGetErrorName(err),
                 cudaGetErrorString(err), what);
    std::exit(2);
  }
}
#define CK(call) check_cuda((call), #call, __FILE__, __LINE__)

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

// The policies of internal/algo.RadixPolicy.
BENCH_KEYS(bench_keys_u32, 256, 16, uint32_t)
BENCH_KEYS(bench_keys_u64, 256, 12, uint64_t)
BENCH_PAIRS(bench_pairs_u32, 256, 16, uint32_t, uint32_t)

static int g_sms = 0;
static int g_runs = 25;
static int g_failures = 0;

static const int kStateWords = 8 * 256 + 8;

static float median(std::vector<float> v)
{
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Times f(i) (i: the rotating input index) and returns the median in µs.
template <typename F>
static float time_us(int rotate, F f)
{
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i)
    f(i % rotate);
  CK(cudaDeviceSynchronize());
  std::vector<float> ts;
  for (int i = 0; i < g_runs; ++i)
  {
    CK(cudaEventRecord(a));
    f(i % rotate);
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    ts.push_back(ms * 1000.f);
  }
  CK(cudaGetLastError());
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  return median(ts);
}

template <typename K, bool PAIRS, typename Ours>
static void bench(const char* type, long long n, const Ours& ours)
{
  using V = uint32_t;
  const int rotate = std::max<long long>(2, std::min<long long>(4, (1ll << 30) / (n * sizeof(K) + 1)));
  std::mt19937_64 rng(n);
  std::vector<K> h(n);
  std::vector<V> hv(n);
  for (long long i = 0; i < n; ++i)
  {
    h[i] = static_cast<K>(rng());
    hv[i] = static_cast<V>(i);
  }
  std::vector<K*> ins(rotate);
  for (auto& p : ins)
  {
    CK(cudaMalloc(&p, n * sizeof(K)));
    CK(cudaMemcpy(p, h.data(), n * sizeof(K), cudaMemcpyHostToDevice));
  }
  V *vin = nullptr, *vout = nullptr, *vref = nullptr;
  K *out, *ref;
  CK(cudaMalloc(&out, n * sizeof(K)));
  CK(cudaMalloc(&ref, n * sizeof(K)));
  if (PAIRS)
  {
    CK(cudaMalloc(&vin, n * sizeof(V)));
    CK(cudaMalloc(&vout, n * sizeof(V)));
    CK(cudaMalloc(&vref, n * sizeof(V)));
    CK(cudaMemcpy(vin, hv.data(), n * sizeof(V), cudaMemcpyHostToDevice));
  }
  size_t cub_bytes = 0;
  if (PAIRS)
    CK(cub::DeviceRadixSort::SortPairs(nullptr, cub_bytes, ins[0], ref, vin, vref, n));
  else
    CK(cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, ins[0], ref, n));
  void* cub_tmp;
  CK(cudaMalloc(&cub_tmp, cub_bytes));
  char* our_tmp;
  CK(cudaMalloc(&our_tmp, ours.scratch_bytes(n)));

  auto run_cub = [&](int i) {
    size_t bytes = cub_bytes;
    if (PAIRS)
      CK(cub::DeviceRadixSort::SortPairs(cub_tmp, bytes, ins[i], ref, vin, vref, n));
    else
      CK(cub::DeviceRadixSort::SortKeys(cub_tmp, bytes, ins[i], ref, n));
  };
  auto run_ours = [&](int i) { ours.run(ins[i], out, vin, vout, n, our_tmp, 0); };
  const long long moved = 2ll * n * (sizeof(K) + (PAIRS ? sizeof(V) : 0));
  const char* alg = PAIRS ? "SortPairs" : "SortKeys";
  float tc = time_us(rotate, run_cub);
  std::printf("cub\t%s\t%s\t%lld\t%.1f\t%lld\n", alg, type, n, tc, moved);
  float tg = time_us(rotate, run_ours);
  std::printf("gocccl\t%s\t%s\t%lld\t%.1f\t%lld\n", alg, type, n, tg, moved);
  std::printf("#ratio\t%s\t%s\t%lld\tgocccl/cub=%.3f\n", alg, type, n, tg / tc);

  // Check: the last calls used input rotate-1 (or another copy of the same
  // data): run both once more on ins[0] and compare.
  run_cub(0);
  run_ours(0);
  CK(cudaDeviceSynchronize());
  std::vector<K> a(n), b(n);
  CK(cudaMemcpy(a.data(), ref, n * sizeof(K), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(b.data(), out, n * sizeof(K), cudaMemcpyDeviceToHost));
  bool ok = std::memcmp(a.data(), b.data(), n * sizeof(K)) == 0;
  if (PAIRS)
  {
    std::vector<V> va(n), vb(n);
    CK(cudaMemcpy(va.data(), vref, n * sizeof(V), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(vb.data(), vout, n * sizeof(V), cudaMemcpyDeviceToHost));
    ok = ok && std::memcmp(va.data(), vb.data(), n * sizeof(V)) == 0;
  }
  if (!ok)
  {
    ++g_failures;
    std::printf("#FAIL\t%s\t%s\t%lld\tgocccl output differs from cub\n", alg, type, n);
  }
  for (auto p : ins)
    CK(cudaFree(p));
  CK(cudaFree(out));
  CK(cudaFree(ref));
  CK(cudaFree(cub_tmp));
  CK(cudaFree(our_tmp));
  if (PAIRS)
  {
    CK(cudaFree(vin));
    CK(cudaFree(vout));
    CK(cudaFree(vref));
  }
}

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
    size_t b = 8 * (kStateWords + tiles * 256);
    return (b + 255) / 256 * 256 + n * sizeof(K);
  }
  void run(const K* kin, K* kout, const void*, void*, long long n, char* tmp, cudaStream_t s) const
  {
    const long long begin = 0, end = 8 * sizeof(K);
    const int passes = int((end - begin + 7) / 8);
    if (n <= TILE)
    {
      SINGLE<<<1, BT, 0, s>>>(kin, kout, n, begin, end, false);
      return;
    }
    long long tiles = (n + TILE - 1) / TILE;
    long long words = kStateWords + tiles * 256;
    size_t keys_at = (8 * words + 255) / 256 * 256;
    INIT<<<(unsigned)std::min<long long>((words + BT - 1) / BT, g_sms * 40), BT, 0, s>>>(tmp, words);
    HIST<<<(unsigned)std::min<long long>(tiles, 4 * g_sms), BT, 0, s>>>(kin, n, tmp, begin, end, false);
    K* alt = reinterpret_cast<K*>(tmp + keys_at);
    const K* src = kin;
    for (int p = 0; p < passes; ++p)
    {
      K* dst = (passes - 1 - p) % 2 == 1 ? alt : kout;
      SWEEP<<<(unsigned)tiles, BT, 0, s>>>(src, dst, n, tmp, p, begin, end, false);
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
    size_t b = 8 * (kStateWords + tiles * 256);
    b = (b + 255) / 256 * 256 + n * sizeof(K);
    return (b + 255) / 256 * 256 + n * sizeof(V);
  }
  void run(const K* kin, K* kout, const void* vin_, void* vout_, long long n, char* tmp, cudaStream_t s) const
  {
    const V* vin = static_cast<const V*>(vin_);
    V* vout = static_cast<V*>(vout_);
    const long long begin = 0, end = 8 * sizeof(K);
    const int passes = int((end - begin + 7) / 8);
    if (n <= TILE)
    {
      SINGLE<<<1, BT, 0, s>>>(kin, kout, vin, vout, n, begin, end, false);
      return;
    }
    long long tiles = (n + TILE - 1) / TILE;
    long long words = kStateWords + tiles * 256;
    size_t keys_at = (8 * words + 255) / 256 * 256;
    size_t values_at = (keys_at + n * sizeof(K) + 255) / 256 * 256;
    INIT<<<(unsigned)std::min<long long>((words + BT - 1) / BT, g_sms * 40), BT, 0, s>>>(tmp, words);
    HIST<<<(unsigned)std::min<long long>(tiles, 4 * g_sms), BT, 0, s>>>(kin, n, tmp, begin, end, false);
    K* alt_k = reinterpret_cast<K*>(tmp + keys_at);
    V* alt_v = reinterpret_cast<V*>(tmp + values_at);
    const K* sk = kin;
    const V* sv = vin;
    for (int p = 0; p < passes; ++p)
    {
      bool to_alt = (passes - 1 - p) % 2 == 1;
      K* dk = to_alt ? alt_k : kout;
      V* dv = to_alt ? alt_v : vout;
      SWEEP<<<(unsigned)tiles, BT, 0, s>>>(sk, dk, sv, dv, n, tmp, p, begin, end, false);
      sk = dk;
      sv = dv;
    }
  }
};

int main(int argc, char** argv)
{
  for (int i = 1; i + 1 < argc; i += 2)
  {
    if (!std::strcmp(argv[i], "--runs"))
      g_runs = std::max(1, std::atoi(argv[i + 1]));
  }
  int dev = 0;
  CK(cudaGetDevice(&dev));
  CK(cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, dev));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, dev));
  std::printf("# %s, %d SMs, CUB %d, median of %d runs\n", prop.name, g_sms, CUB_VERSION, g_runs);
  std::printf("impl\tAlgorithm\ttype\tn\tmedian_us\tbytes_moved\n");

  OursKeys<uint32_t, 256, 16, bench_keys_u32_init, bench_keys_u32_histogram, bench_keys_u32_onesweep,
           bench_keys_u32_single>
    k32;
  OursKeys<uint64_t, 256, 12, bench_keys_u64_init, bench_keys_u64_histogram, bench_keys_u64_onesweep,
           bench_keys_u64_single>
    k64;
  OursPairs<uint32_t, uint32_t, 256, 16, bench_pairs_u32_init, bench_pairs_u32_histogram, bench_pairs_u32_onesweep,
            bench_pairs_u32_single>
    p32;
  for (int lg : {10, 20, 24, 28})
  {
    const long long n = 1ll << lg;
    bench<uint32_t, false>("uint32", n, k32);
    bench<uint64_t, false>("uint64", n, k64);
    bench<uint32_t, true>("uint32", n, p32);
  }
  if (g_failures)
  {
    std::printf("# %d FAILURES\n", g_failures);
    return 1;
  }
  return 0;
}
