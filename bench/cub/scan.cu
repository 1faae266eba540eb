// scan.cu: cub::DeviceScan::InclusiveSum / ExclusiveSum against gocccl's
// scan kernels (kernels/include/gocccl/scan.cuh, dispatched as the Go runtime
// does), in one process, on the same inputs.
//
// For n = 2^10, 2^16, 2^20, 2^24, 2^28 and uint32 / float32 it prints TSV rows
//
//   impl  algorithm  type  n  median_us  bytes_moved
//
// impl "cub" is the CUB device call (temp storage allocated beforehand),
// "gocccl_kernel" our two kernels (_init, then _sweep; _sweep alone on one
// block for a single tile) without the Go runtime's host dispatch. Each
// figure is the median of --runs event-timed calls after a warm-up; inputs
// rotate over several identical buffers that together exceed the L2 cache
// (timed calls read DRAM). bytes_moved = 2 n sizeof(T) (read + write).
// Results are checked: uint32 exactly, float32 against a double-precision
// CPU prefix sum; a failure exits 1.
//
// Then InclusiveScanByKey / ExclusiveScanByKey (cub::DeviceScan::
// InclusiveSumByKey / ExclusiveSumByKey): uint32 keys in runs of random
// length (mean 7), uint32 and float32 values, bytes_moved = 3 n 4 (keys and
// values read, values written); gocccl's kernels at 256 x 9.
//
// Build (CUDA 13 + CCCL 3 on the GPU machine; CUDA 11.8 + CUB 1.17 also):
//   nvcc -std=c++17 -O3 -arch=sm_90 -I kernels/include -o scan_bench bench/cub/scan.cu
// Usage: scan_bench [--runs R]   (default R = 25)

#include <gocccl/scan.cuh>
#include <gocccl/scan_by_key.cuh>

#include <cub/device/device_scan.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
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

// Our own functors, as generated code has (CCCL 3 has no cub::Sum).
struct SumU32
{
  __host__ __device__ unsigned operator()(unsigned a, unsigned b) const { return a + b; }
};
struct SumF32
{
  __host__ __device__ float operator()(float a, float b) const { return a + b; }
};

// Entry points as gocccl-gen writes them, at the sm_90 policy for 4-byte
// items (internal/algo/scan.go): 128 threads x 24 items.
constexpr int kThreads = 128, kItems = 24;

#define BENCH_SCAN(NAME, T, OP)                                                                                    \
  extern "C" __global__ void __launch_bounds__(kThreads) NAME##_init(void* d_state, long long bytes, long long tiles) \
  {                                                                                                                \
    gocccl::scan_init<kThreads, kItems, T, OP>(d_state, bytes, tiles);                                            \
  }                                                                                                                \
  extern "C" __global__ void __launch_bounds__(kThreads) NAME##_incl(                                              \
    const T* d_in, T* d_out, long long n, void* d_state, long long bytes, T init, const T* d_init, bool has_init)   \
  {                                                                                                                \
    gocccl::inclusive_scan<kThreads, kItems, T, OP>(d_in, d_out, n, d_state, bytes, init, d_init, has_init);      \
  }                                                                                                                \
  extern "C" __global__ void __launch_bounds__(kThreads) NAME##_excl(                                              \
    const T* d_in, T* d_out, long long n, void* d_state, long long bytes, T init, const T* d_init, bool has_init)   \
  {                                                                                                                \
    gocccl::exclusive_scan<kThreads, kItems, T, OP>(d_in, d_out, n, d_state, bytes, init, d_init, has_init);      \
  }

BENCH_SCAN(scan_u32, unsigned, SumU32)
BENCH_SCAN(scan_f32, float, SumF32)

struct EqU32
{
  __host__ __device__ bool operator()(unsigned a, unsigned b) const { return a == b; }
};

// Scans by key at internal/algo/scan_bykey.go's policy for 4-byte items.
constexpr int kKeyThreads = 256, kKeyItems = 9;

#define BENCH_SCAN_BY_KEY(NAME, V, OP)                                                                             \
  extern "C" __global__ void __launch_bounds__(kKeyThreads) NAME##_init(void* d_state, long long b, long long t)  \
  {                                                                                                                \
    gocccl::scan_by_key_init<kKeyThreads, kKeyItems, unsigned, V, EqU32, OP>(d_state, b, t);                      \
  }                                                                                                                \
  extern "C" __global__ void __launch_bounds__(kKeyThreads) NAME##_incl(                                           \
    const unsigned* k, const V* v, V* o, long long n, void* d_state, long long b)                                   \
  {                                                                                                                \
    gocccl::inclusive_scan_by_key<kKeyThreads, kKeyItems, unsigned, V, EqU32, OP>(k, v, o, n, d_state, b);        \
  }                                                                                                                \
  extern "C" __global__ void __launch_bounds__(kKeyThreads) NAME##_excl(                                           \
    const unsigned* k, const V* v, V* o, long long n, void* d_state, long long b, V init)                           \
  {                                                                                                                \
    gocccl::exclusive_scan_by_key<kKeyThreads, kKeyItems, unsigned, V, EqU32, OP>(k, v, o, n, d_state, b, init);  \
  }

BENCH_SCAN_BY_KEY(sbk_u32, unsigned, SumU32)
BENCH_SCAN_BY_KEY(sbk_f32, float, SumF32)

static int g_runs = 25;
static int g_l2_bytes = 0;
static int g_failures = 0;

template <typename T>
struct Ours
{
  void (*init)(void*, long long, long long);
  void (*incl)(const T*, T*, long long, void*, long long, T, const T*, bool);
  void (*excl)(const T*, T*, long long, void*, long long, T, const T*, bool);

  static long long tiles(long long n) { return (n + kThreads * kItems - 1) / (kThreads * kItems); }
  static size_t state_bytes(long long n)
  {
    size_t bytes = 0;
    CK(cub::ScanTileState<T>::AllocationSize(static_cast<int>(tiles(n)), bytes));
    return bytes;
  }
  // The Go runtime's dispatch (runtime/scan.go).
  void run(bool inclusive, const T* d_in, T* d_out, long long n, void* d_state, size_t bytes, cudaStream_t s) const
  {
    const long long t = tiles(n);
    if (t > 1)
    {
      init<<<static_cast<unsigned>((t + kThreads - 1) / kThreads), kThreads, 0, s>>>(d_state, bytes, t);
    }
    auto sweep = inclusive ? incl : excl;
    sweep<<<static_cast<unsigned>(t), kThreads, 0, s>>>(d_in, d_out, n, t > 1 ? d_state : nullptr, bytes, T{},
                                                         nullptr, false);
  }
};

// median_us times fn(buffer) over rotating buffers.
static double median_us(int nbuf, cudaStream_t s, const std::function<void(int)>& fn)
{
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int i = 0; i < nbuf; ++i)
  {
    fn(i); // warm-up
  }
  std::vector<float> ms(g_runs);
  for (int r = 0; r < g_runs; ++r)
  {
    CK(cudaEventRecord(a, s));
    fn(r % nbuf);
    CK(cudaEventRecord(b, s));
    CK(cudaEventSynchronize(b));
    CK(cudaEventElapsedTime(&ms[r], a, b));
  }
  CK(cudaGetLastError());
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2] * 1e3;
}

template <typename T>
static void check(const char* impl, const char* alg, const char* type, const std::vector<T>& h_in, T* d_out,
                  bool inclusive)
{
  const size_t n = h_in.size();
  std::vector<T> got(n);
  CK(cudaMemcpy(got.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
  double exact = 0, mag = 0;
  T acc{};
  for (size_t i = 0; i < n; ++i)
  {
    if (!inclusive)
    {
      bool bad = std::is_integral<T>::value ? got[i] != acc : std::fabs(double(got[i]) - exact) > 1e-5 * mag + 1e-6;
      if (bad)
      {
        std::fprintf(stderr, "FAIL %s %s %s n=%zu: element %zu is %g, want %g\n", impl, alg, type, n, i,
                     double(got[i]), std::is_integral<T>::value ? double(acc) : exact);
        ++g_failures;
        return;
      }
    }
    acc = acc + h_in[i];
    exact += double(h_in[i]);
    mag += std::fabs(double(h_in[i]));
    if (inclusive)
    {
      bool bad = std::is_integral<T>::value ? got[i] != acc : std::fabs(double(got[i]) - exact) > 1e-5 * mag + 1e-6;
      if (bad)
      {
        std::fprintf(stderr, "FAIL %s %s %s n=%zu: element %zu is %g, want %g\n", impl, alg, type, n, i,
                     double(got[i]), std::is_integral<T>::value ? double(acc) : exact);
        ++g_failures;
        return;
      }
    }
  }
}

template <typename T>
static void bench(const char* type, const Ours<T>& ours, long long n, cudaStream_t s)
{
  std::mt19937_64 rng(n * 7 + sizeof(T));
  std::vector<T> h(n);
  for (auto& v : h)
  {
    if (std::is_integral<T>::value)
    {
      v = static_cast<T>(rng() >> 40);
    }
    else
    {
      v = static_cast<T>(double(rng() >> 11) * 0x1p-53);
    }
  }
  const size_t bytes = n * sizeof(T);
  const int nbuf = static_cast<int>(std::min<long long>(16, std::max<long long>(2, (3LL * g_l2_bytes + bytes - 1) / bytes)));
  std::vector<T*> ins(nbuf);
  for (auto& p : ins)
  {
    CK(cudaMalloc(&p, bytes));
    CK(cudaMemcpy(p, h.data(), bytes, cudaMemcpyHostToDevice));
  }
  T* d_out;
  CK(cudaMalloc(&d_out, bytes));

  size_t cub_bytes = 0, b2 = 0;
  CK(cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, ins[0], d_out, static_cast<int>(n), s));
  CK(cub::DeviceScan::ExclusiveSum(nullptr, b2, ins[0], d_out, static_cast<int>(n), s));
  cub_bytes = std::max(cub_bytes, b2);
  void* d_cub;
  CK(cudaMalloc(&d_cub, std::max<size_t>(cub_bytes, 1)));
  const size_t state = Ours<T>::state_bytes(n);
  void* d_state;
  CK(cudaMalloc(&d_state, std::max<size_t>(state, 1)));

  for (int inclusive = 1; inclusive >= 0; --inclusive)
  {
    const char* alg = inclusive ? "InclusiveScan" : "ExclusiveScan";
    double cub_us = median_us(nbuf, s, [&](int i) {
      size_t tb = cub_bytes;
      if (inclusive)
        CK(cub::DeviceScan::InclusiveSum(d_cub, tb, ins[i], d_out, static_cast<int>(n), s));
      else
        CK(cub::DeviceScan::ExclusiveSum(d_cub, tb, ins[i], d_out, static_cast<int>(n), s));
    });
    check("cub", alg, type, h, d_out, inclusive);
    CK(cudaMemset(d_out, 0xAB, bytes));
    double our_us = median_us(nbuf, s, [&](int i) { ours.run(inclusive, ins[i], d_out, n, d_state, state, s); });
    CK(cudaStreamSynchronize(s));
    check("gocccl_kernel", alg, type, h, d_out, inclusive);
    std::printf("cub\t%s\t%s\t%lld\t%.2f\t%zu\n", alg, type, n, cub_us, 2 * bytes);
    std::printf("gocccl_kernel\t%s\t%s\t%lld\t%.2f\t%zu\n", alg, type, n, our_us, 2 * bytes);
    std::fflush(stdout);
  }
  for (auto p : ins)
  {
    CK(cudaFree(p));
  }
  CK(cudaFree(d_out));
  CK(cudaFree(d_cub));
  CK(cudaFree(d_state));
}

template <typename V>
struct OursByKey
{
  void (*init)(void*, long long, long long);
  void (*incl)(const unsigned*, const V*, V*, long long, void*, long long);
  void (*excl)(const unsigned*, const V*, V*, long long, void*, long long, V);

  static long long tiles(long long n) { return (n + kKeyThreads * kKeyItems - 1) / (kKeyThreads * kKeyItems); }
  static size_t state_bytes(long long n)
  {
    size_t bytes = 0;
    using TileState = cub::ReduceByKeyScanTileState<V, int>;
    CK(TileState::AllocationSize(static_cast<int>(tiles(n)), bytes));
    return bytes;
  }
  void run(bool inclusive, const unsigned* k, const V* v, V* o, long long n, void* d_state, size_t bytes,
           cudaStream_t s) const
  {
    const long long t = tiles(n);
    if (t > 1)
    {
      init<<<static_cast<unsigned>((t + kKeyThreads - 1) / kKeyThreads), kKeyThreads, 0, s>>>(d_state, bytes, t);
    }
    void* st = t > 1 ? d_state : nullptr;
    if (inclusive)
      incl<<<static_cast<unsigned>(t), kKeyThreads, 0, s>>>(k, v, o, n, st, bytes);
    else
      excl<<<static_cast<unsigned>(t), kKeyThreads, 0, s>>>(k, v, o, n, st, bytes, V{});
  }
};

template <typename V>
static void check_by_key(const char* impl, const char* alg, const char* type, const std::vector<unsigned>& keys,
                         const std::vector<V>& vals, V* d_out, bool inclusive)
{
  const size_t n = vals.size();
  std::vector<V> got(n);
  CK(cudaMemcpy(got.data(), d_out, n * sizeof(V), cudaMemcpyDeviceToHost));
  double acc = 0, mag = 0;
  for (size_t i = 0; i < n; ++i)
  {
    if (i == 0 || keys[i - 1] != keys[i])
    {
      acc = mag = 0;
    }
    if (inclusive)
    {
      acc += double(vals[i]);
      mag += std::fabs(double(vals[i]));
    }
    bool bad = std::is_integral<V>::value ? got[i] != static_cast<V>(static_cast<unsigned long long>(acc))
                                          : std::fabs(double(got[i]) - acc) > 1e-5 * mag + 1e-6;
    if (bad)
    {
      std::fprintf(stderr, "FAIL %s %s %s n=%zu: element %zu is %g, want %g\n", impl, alg, type, n, i, double(got[i]),
                   acc);
      ++g_failures;
      return;
    }
    if (!inclusive)
    {
      acc += double(vals[i]);
      mag += std::fabs(double(vals[i]));
    }
  }
}

template <typename V>
static void bench_by_key(const char* type, const OursByKey<V>& ours, long long n, cudaStream_t s)
{
  std::mt19937_64 rng(n * 11 + sizeof(V));
  std::vector<unsigned> hk(n);
  std::vector<V> hv(n);
  unsigned key = 0;
  for (long long i = 0; i < n; ++i)
  {
    if (rng() % 7 == 0)
    {
      ++key;
    }
    hk[i] = key;
    hv[i] = std::is_integral<V>::value ? static_cast<V>(rng() >> 54) : static_cast<V>(double(rng() >> 11) * 0x1p-53);
  }
  const size_t bytes = n * sizeof(V);
  const int nbuf = static_cast<int>(std::min<long long>(16, std::max<long long>(2, (3LL * g_l2_bytes + 2 * bytes - 1) / (2 * bytes))));
  std::vector<unsigned*> ks(nbuf);
  std::vector<V*> vs(nbuf);
  for (int i = 0; i < nbuf; ++i)
  {
    CK(cudaMalloc(&ks[i], n * sizeof(unsigned)));
    CK(cudaMemcpy(ks[i], hk.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CK(cudaMalloc(&vs[i], bytes));
    CK(cudaMemcpy(vs[i], hv.data(), bytes, cudaMemcpyHostToDevice));
  }
  V* d_out;
  CK(cudaMalloc(&d_out, bytes));
  size_t cub_bytes = 0, b2 = 0;
  CK(cub::DeviceScan::InclusiveSumByKey(nullptr, cub_bytes, ks[0], vs[0], d_out, static_cast<int>(n), EqU32(), s));
  CK(cub::DeviceScan::ExclusiveSumByKey(nullptr, b2, ks[0], vs[0], d_out, static_cast<int>(n), EqU32(), s));
  cub_bytes = std::max(cub_bytes, b2);
  void* d_cub;
  CK(cudaMalloc(&d_cub, std::max<size_t>(cub_bytes, 1)));
  const size_t state = OursByKey<V>::state_bytes(n);
  void* d_state;
  CK(cudaMalloc(&d_state, std::max<size_t>(state, 1)));
  for (int inclusive = 1; inclusive >= 0; --inclusive)
  {
    const char* alg = inclusive ? "InclusiveScanByKey" : "ExclusiveScanByKey";
    double cub_us = median_us(nbuf, s, [&](int i) {
      size_t tb = cub_bytes;
      if (inclusive)
        CK(cub::DeviceScan::InclusiveSumByKey(d_cub, tb, ks[i], vs[i], d_out, static_cast<int>(n), EqU32(), s));
      else
        CK(cub::DeviceScan::ExclusiveSumByKey(d_cub, tb, ks[i], vs[i], d_out, static_cast<int>(n), EqU32(), s));
    });
    check_by_key("cub", alg, type, hk, hv, d_out, inclusive);
    CK(cudaMemset(d_out, 0xAB, bytes));
    double our_us =
      median_us(nbuf, s, [&](int i) { ours.run(inclusive, ks[i], vs[i], d_out, n, d_state, state, s); });
    CK(cudaStreamSynchronize(s));
    check_by_key("gocccl_kernel", alg, type, hk, hv, d_out, inclusive);
    std::printf("cub\t%s\t%s\t%lld\t%.2f\t%zu\n", alg, type, n, cub_us, 3 * bytes);
    std::printf("gocccl_kernel\t%s\t%s\t%lld\t%.2f\t%zu\n", alg, type, n, our_us, 3 * bytes);
    std::fflush(stdout);
  }
  for (int i = 0; i < nbuf; ++i)
  {
    CK(cudaFree(ks[i]));
    CK(cudaFree(vs[i]));
  }
  CK(cudaFree(d_out));
  CK(cudaFree(d_cub));
  CK(cudaFree(d_state));
}

int main(int argc, char** argv)
{
  for (int i = 1; i < argc; ++i)
  {
    if (!std::strcmp(argv[i], "--runs") && i + 1 < argc)
    {
      g_runs = std::max(1, std::atoi(argv[++i]));
    }
  }
  int dev = 0;
  CK(cudaSetDevice(dev));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, dev));
  g_l2_bytes = prop.l2CacheSize;
  std::fprintf(stderr, "device: %s, %d SMs, L2 %d MiB, CUB %d, %d runs per figure\n", prop.name,
               prop.multiProcessorCount, g_l2_bytes >> 20, CUB_VERSION, g_runs);
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  const Ours<unsigned> u32{scan_u32_init, scan_u32_incl, scan_u32_excl};
  const Ours<float> f32{scan_f32_init, scan_f32_incl, scan_f32_excl};
  for (int lg : {10, 16, 20, 24, 28})
  {
    bench("uint32", u32, 1LL << lg, s);
    bench("float32", f32, 1LL << lg, s);
  }
  const OursByKey<unsigned> ku32{sbk_u32_init, sbk_u32_incl, sbk_u32_excl};
  const OursByKey<float> kf32{sbk_f32_init, sbk_f32_incl, sbk_f32_excl};
  for (int lg : {10, 16, 20, 24, 28})
  {
    bench_by_key("uint32", ku32, 1LL << lg, s);
    bench_by_key("float32", kf32, 1LL << lg, s);
  }
  CK(cudaStreamDestroy(s));
  if (g_failures)
  {
    std::fprintf(stderr, "%d check(s) failed\n", g_failures);
    return 1;
  }
  return 0;
}
