// reduce_bench.cu: gocccl's reduce kernels against cub::DeviceReduce::Sum, in
// one process, on the same inputs.
//
// For n = 2^10, 2^16, 2^20, 2^24, 2^28 and int32 / float32 (and float64):
//   copy    cudaMemcpyAsync device-to-device of the same bytes (the bandwidth
//           ceiling; its GB/s counts bytes read + written)
//   cub     cub::DeviceReduce::Sum (temp storage allocated beforehand)
//   gocccl  gocccl::reduce_partial + reduce_final behind extern "C" entry
//           points, dispatched as the Go runtime does: _final alone when
//           n <= tile, else _partial over G = min(num_tiles, SMs * occupancy
//           * k) blocks, then _final over the G partials
// Each figure is the median of kRuns event-timed calls after warm-up. Inputs
// rotate over several identical buffers so that together they exceed the L2
// cache several times over (timed calls read DRAM, not L2), at least 2.
// Results are checked: integers exactly, floats by relative error against a
// double-precision CPU sum.
//
// Then a tuning sweep (gocccl only, plus cub for reference): policies
// (BLOCK_THREADS x ITEMS_PER_THREAD), the oversubscription factor k, the
// misaligned (per-item) path, 1-byte and 8-byte items.
//
// Usage: reduce_bench [--k K] [--runs R]   (defaults: k = 5 as CUB, R = 25)

#include <gocccl/reduce.cuh>

#include <cub/device/device_reduce.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
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

// ---------------------------------------------------------------------------
// Operators (CCCL 3.0 has no cub::Sum: our own functors, as generated code has).

struct SumI32 // wraps, as Go's int32 '+'
{
  __host__ __device__ int operator()(const int& a, const int& b) const
  {
    return static_cast<int>(static_cast<unsigned>(a) + static_cast<unsigned>(b));
  }
};
struct SumF32
{
  __host__ __device__ float operator()(const float& a, const float& b) const { return a + b; }
};
struct SumF64
{
  __host__ __device__ double operator()(const double& a, const double& b) const { return a + b; }
};
struct SumU8
{
  __host__ __device__ unsigned char operator()(const unsigned char& a, const unsigned char& b) const
  {
    return static_cast<unsigned char>(a + b);
  }
};

#define BENCH_REDUCE(NAME, BT, IPT, T, OP)                                                                    \
  extern "C" __global__ void __launch_bounds__(BT) NAME##_partial(const T* d_in, long long n, T* d_partials)  \
  {                                                                                                           \
    gocccl::reduce_partial<BT, IPT, T, OP>(d_in, n, d_partials);                                             \
  }                                                                                                           \
  extern "C" __global__ void __launch_bounds__(BT) NAME##_final(const T* d_in, long long n, T* d_out, T init) \
  {                                                                                                           \
    gocccl::reduce_final<BT, IPT, T, OP>(d_in, n, d_out, init);                                              \
  }

// Recommended policies.
BENCH_REDUCE(bench_sum_i32, 256, 16, int, SumI32)
BENCH_REDUCE(bench_sum_f32, 256, 16, float, SumF32)
BENCH_REDUCE(bench_sum_f64, 256, 8, double, SumF64)
BENCH_REDUCE(bench_sum_u8, 256, 32, unsigned char, SumU8)
// Sweep variants.
BENCH_REDUCE(bench_sum_i32_128x16, 128, 16, int, SumI32)
BENCH_REDUCE(bench_sum_i32_256x8, 256, 8, int, SumI32)
BENCH_REDUCE(bench_sum_i32_256x24, 256, 24, int, SumI32)
BENCH_REDUCE(bench_sum_i32_256x32, 256, 32, int, SumI32)
BENCH_REDUCE(bench_sum_i32_512x8, 512, 8, int, SumI32)
BENCH_REDUCE(bench_sum_i32_512x16, 512, 16, int, SumI32)
BENCH_REDUCE(bench_sum_i32_1024x4, 1024, 4, int, SumI32)
BENCH_REDUCE(bench_sum_f64_256x4, 256, 4, double, SumF64)
BENCH_REDUCE(bench_sum_f64_256x16, 256, 16, double, SumF64)
BENCH_REDUCE(bench_sum_f64_512x8, 512, 8, double, SumF64)
BENCH_REDUCE(bench_sum_u8_256x16, 256, 16, unsigned char, SumU8)
BENCH_REDUCE(bench_sum_u8_256x64, 256, 64, unsigned char, SumU8)
BENCH_REDUCE(bench_sum_u8_512x32, 512, 32, unsigned char, SumU8)

extern "C" __global__ void bench_empty() {}

// ---------------------------------------------------------------------------
// Host side.

static int g_sms = 0;
static int g_l2_bytes = 0;
static int g_runs = 25;
static int g_k = 5;
static int g_failures = 0;

template <typename T>
struct Kernels
{
  const char* policy;
  void (*partial)(const T*, long long, T*);
  void (*final_)(const T*, long long, T*, T);
  int block_threads;
  int items_per_thread;
  int occupancy; // blocks per SM of _partial, filled in by init()

  void init()
  {
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occupancy, partial, block_threads, 0));
  }
  long long tile() const { return static_cast<long long>(block_threads) * items_per_thread; }
  long long grid(long long n, int k) const
  {
    if (n <= tile()) return 0;
    const long long num_tiles = (n + tile() - 1) / tile();
    return std::min<long long>(num_tiles, static_cast<long long>(g_sms) * occupancy * k);
  }
  // The Go runtime's dispatch.
  void run(const T* d_in, long long n, T* d_out, T* d_partials, int k, cudaStream_t s) const
  {
    const long long G = grid(n, k);
    if (G == 0)
    {
      final_<<<1, block_threads, 0, s>>>(d_in, n, d_out, T{});
    }
    else
    {
      partial<<<static_cast<unsigned>(G), block_threads, 0, s>>>(d_in, n, d_partials);
      final_<<<1, block_threads, 0, s>>>(d_partials, G, d_out, T{});
    }
  }
};

// Median of g_runs event-timed calls of fn(i) (i = run index), after warm-up.
static double time_us(const std::function<void(int)>& fn)
{
  cudaEvent_t start, stop;
  CK(cudaEventCreate(&start));
  CK(cudaEventCreate(&stop));
  for (int i = 0; i < 3; ++i) fn(i);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<float> ms(static_cast<size_t>(g_runs));
  for (int i = 0; i < g_runs; ++i)
  {
    CK(cudaEventRecord(start));
    fn(i);
    CK(cudaEventRecord(stop));
    CK(cudaEventSynchronize(stop));
    CK(cudaGetLastError());
    CK(cudaEventElapsedTime(&ms[static_cast<size_t>(i)], start, stop));
  }
  CK(cudaEventDestroy(start));
  CK(cudaEventDestroy(stop));
  std::sort(ms.begin(), ms.end());
  return 1000.0 * ms[ms.size() / 2];
}

static uint64_t splitmix64(uint64_t& s)
{
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Inputs: int32 in [-8, 8] \ {0} (no overflow up to 2^28 items), floats in
// (0, 1), bytes random.
template <typename T> static T make_item(uint64_t& s);
template <> int make_item<int>(uint64_t& s)
{
  int v = static_cast<int>(splitmix64(s) % 16) - 8;
  return v >= 0 ? v + 1 : v;
}
template <> float make_item<float>(uint64_t& s)
{
  return (static_cast<float>(splitmix64(s) >> 40) + 0.5f) / 16777216.0f;
}
template <> double make_item<double>(uint64_t& s)
{
  return (static_cast<double>(splitmix64(s) >> 11) + 0.5) / 9007199254740992.0;
}
template <> unsigned char make_item<unsigned char>(uint64_t& s) { return static_cast<unsigned char>(splitmix64(s)); }

// nbuf identical copies of one input, each 256-byte aligned.
template <typename T>
struct Inputs
{
  long long n = 0;
  size_t stride = 0; // bytes between buffers
  int nbuf = 0;
  unsigned char* base = nullptr;
  double ref = 0.0;  // double-precision sum
  T ref_exact{};     // sum with T's own (wrapping) arithmetic

  Inputs(long long n_, uint64_t seed) : n(n_)
  {
    const size_t bytes = static_cast<size_t>(n) * sizeof(T);
    stride = (bytes + 255) / 256 * 256;
    const size_t want = 4ull * static_cast<size_t>(g_l2_bytes); // footprint of a rotation
    nbuf = bytes >= want ? 1 : static_cast<int>(std::min<size_t>(64, (want + bytes - 1) / bytes));
    nbuf = std::max(nbuf, bytes >= want ? 1 : 2);
    CK(cudaMalloc(&base, stride * static_cast<size_t>(nbuf)));
    std::vector<T> h(static_cast<size_t>(n));
    uint64_t s = seed;
    for (auto& x : h)
    {
      x = make_item<T>(s);
      ref += static_cast<double>(x);
    }
    if constexpr (std::is_same<T, int>::value)
    {
      uint32_t acc = 0;
      for (int x : h) acc += static_cast<uint32_t>(x);
      ref_exact = static_cast<int>(acc);
    }
    if constexpr (std::is_same<T, unsigned char>::value)
    {
      unsigned acc = 0;
      for (unsigned char x : h) acc += x;
      ref_exact = static_cast<unsigned char>(acc);
    }
    CK(cudaMemcpy(base, h.data(), bytes, cudaMemcpyHostToDevice));
    for (int b = 1; b < nbuf; ++b) CK(cudaMemcpy(base + stride * b, base, bytes, cudaMemcpyDeviceToDevice));
  }
  ~Inputs() { CK(cudaFree(base)); }
  Inputs(const Inputs&) = delete;
  Inputs& operator=(const Inputs&) = delete;

  T* buf(int i) const { return reinterpret_cast<T*>(base + stride * static_cast<size_t>(i % nbuf)); }
  double bytes() const { return static_cast<double>(n) * sizeof(T); }
};

// Checks a result; returns a short status and counts failures.
template <typename T>
static std::string check(const char* who, const Inputs<T>& in, T got)
{
  char buf[64];
  if constexpr (std::is_floating_point<T>::value)
  {
    const double rel = std::fabs(static_cast<double>(got) - in.ref) / std::fabs(in.ref);
    const double tol = sizeof(T) == 4 ? 1e-4 : 1e-12;
    std::snprintf(buf, sizeof buf, "%s:%s(%.1e)", who, rel <= tol ? "ok" : "BAD", rel);
    if (!(rel <= tol)) ++g_failures;
  }
  else
  {
    const bool ok = std::memcmp(&got, &in.ref_exact, sizeof(T)) == 0;
    std::snprintf(buf, sizeof buf, "%s:%s", who, ok ? "ok" : "BAD");
    if (!ok) ++g_failures;
  }
  return buf;
}

struct Scratch
{
  void* cub_temp = nullptr;
  size_t cub_temp_bytes = 0;
  unsigned char* partials = nullptr; // room for 2^20 partials of up to 8 bytes
  unsigned char* out = nullptr;      // one result
  unsigned char* copy_dst = nullptr;
  size_t copy_bytes = 0;
};

template <typename T>
static T fetch(const unsigned char* d)
{
  T v;
  CK(cudaMemcpy(&v, d, sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

template <typename T>
static double time_gocccl(const Kernels<T>& k, const Inputs<T>& in, Scratch& s, int sub, long long offset = 0)
{
  T* out = reinterpret_cast<T*>(s.out);
  T* partials = reinterpret_cast<T*>(s.partials);
  const long long n = in.n - offset;
  return time_us([&](int i) { k.run(in.buf(i) + offset, n, out, partials, sub, 0); });
}

// g_tsv, when set by --tsv, receives one row per CUB measurement of the main table.
static FILE* g_tsv = nullptr;

template <typename T>
static void main_row(const char* type, Kernels<T> k, long long n, Scratch& s, uint64_t seed)
{
  Inputs<T> in(n, seed);
  const size_t bytes = static_cast<size_t>(n) * sizeof(T);

  // copy ceiling: same bytes, device to device
  const double copy_us = time_us(
    [&](int i) { CK(cudaMemcpyAsync(s.copy_dst, in.buf(i), bytes, cudaMemcpyDeviceToDevice, 0)); });

  // cub
  T* out = reinterpret_cast<T*>(s.out);
  size_t temp_bytes = 0;
  CK(cub::DeviceReduce::Sum(nullptr, temp_bytes, in.buf(0), out, static_cast<int>(n), cudaStream_t{}));
  if (temp_bytes > s.cub_temp_bytes)
  {
    std::fprintf(stderr, "cub temp storage %zu > %zu\n", temp_bytes, s.cub_temp_bytes);
    std::exit(2);
  }
  const double cub_us = time_us([&](int i) {
    size_t tb = temp_bytes;
    CK(cub::DeviceReduce::Sum(s.cub_temp, tb, in.buf(i), out, static_cast<int>(n), cudaStream_t{}));
  });
  CK(cudaMemset(s.out, 0xAB, 16));
  {
    size_t tb = temp_bytes;
    CK(cub::DeviceReduce::Sum(s.cub_temp, tb, in.buf(0), out, static_cast<int>(n), cudaStream_t{}));
  }
  const std::string cub_check = check("cub", in, fetch<T>(s.out));

  // gocccl
  const double our_us = time_gocccl(k, in, s, g_k);
  CK(cudaMemset(s.out, 0xAB, 16));
  k.run(in.buf(0), n, out, reinterpret_cast<T*>(s.partials), g_k, 0);
  CK(cudaGetLastError());
  const std::string our_check = check("gocccl", in, fetch<T>(s.out));

  if (g_tsv)
  {
    // The Go benchmark (bench/gpubench -cub) reads these rows to print its
    // own times next to CUB's: Go type name, n, CUB microseconds.
    const char* go_type = !std::strcmp(type, "i32") ? "int32" : !std::strcmp(type, "f32") ? "float32" : "float64";
    std::fprintf(g_tsv, "%s\t%lld\t%.2f\n", go_type, n, cub_us);
    std::fflush(g_tsv);
  }
  const double gb = in.bytes() / 1e9;
  std::printf("2^%-3d %-5s %9.1f %8.1f %8.0f %8.1f %8.0f %9.1f %8.0f %6.2f %6lld %2d  %s %s\n",
              static_cast<int>(std::lround(std::log2(static_cast<double>(n)))), type, in.bytes() / 1048576.0, copy_us,
              2 * gb / (copy_us * 1e-6), cub_us, gb / (cub_us * 1e-6), our_us, gb / (our_us * 1e-6), our_us / cub_us,
              k.grid(n, g_k), in.nbuf, cub_check.c_str(), our_check.c_str());
}

template <typename T>
static void sweep_rows(const char* type, const std::vector<Kernels<T>>& ks, const Inputs<T>& in, Scratch& s,
                       bool with_cub, const std::vector<int>& subs)
{
  const long long n = in.n;
  const size_t bytes = static_cast<size_t>(n) * sizeof(T);
  const double gb = in.bytes() / 1e9;
  const double copy_us = time_us(
    [&](int i) { CK(cudaMemcpyAsync(s.copy_dst, in.buf(i), bytes, cudaMemcpyDeviceToDevice, 0)); });
  double cub_us = 0;
  if (with_cub)
  {
    size_t temp_bytes = 0;
    T* out = reinterpret_cast<T*>(s.out);
    CK(cub::DeviceReduce::Sum(nullptr, temp_bytes, in.buf(0), out, static_cast<int>(n), cudaStream_t{}));
    cub_us = time_us([&](int i) {
      size_t tb = temp_bytes;
      CK(cub::DeviceReduce::Sum(s.cub_temp, tb, in.buf(i), out, static_cast<int>(n), cudaStream_t{}));
    });
  }
  std::printf("-- %s n=2^%d (%.0f MiB): copy %.1f us (%.0f GB/s r+w)", type,
              static_cast<int>(std::lround(std::log2(static_cast<double>(n)))), in.bytes() / 1048576.0, copy_us,
              2 * gb / (copy_us * 1e-6));
  if (with_cub) std::printf(", cub %.1f us (%.0f GB/s)", cub_us, gb / (cub_us * 1e-6));
  std::printf("\n");
  for (const auto& k : ks)
  {
    for (int sub : subs)
    {
      const double us = time_gocccl(k, in, s, sub);
      CK(cudaMemset(s.out, 0xAB, 16));
      k.run(in.buf(0), n, reinterpret_cast<T*>(s.out), reinterpret_cast<T*>(s.partials), sub, 0);
      CK(cudaGetLastError());
      const std::string c = check("", in, fetch<T>(s.out));
      std::printf("   %-9s occ %2d k %d G %6lld: %8.1f us %6.0f GB/s", k.policy, k.occupancy, sub, k.grid(n, sub), us,
                  gb / (us * 1e-6));
      if (with_cub) std::printf("  vs cub %.2f", us / cub_us);
      std::printf("  %s\n", c.c_str() + 1);
    }
  }
}

int main(int argc, char** argv)
{
  for (int i = 1; i < argc; ++i)
  {
    if (!std::strcmp(argv[i], "--k") && i + 1 < argc) g_k = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) g_runs = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--tsv") && i + 1 < argc)
    {
      g_tsv = std::fopen(argv[++i], "w");
      if (!g_tsv)
      {
        std::perror(argv[i]);
        return 2;
      }
      std::fprintf(g_tsv, "# type\tn\tcub_us (cub::DeviceReduce::Sum, median)\n");
    }
    else
    {
      std::fprintf(stderr, "usage: %s [--k K] [--runs R] [--tsv FILE]\n", argv[0]);
      return 2;
    }
  }
  g_runs = std::max(g_runs, 20);
  int dev = 0;
  CK(cudaGetDevice(&dev));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, dev));
  CK(cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, dev));
  CK(cudaDeviceGetAttribute(&g_l2_bytes, cudaDevAttrL2CacheSize, dev));
  int runtime = 0, driver = 0;
  CK(cudaRuntimeGetVersion(&runtime));
  CK(cudaDriverGetVersion(&driver));
  std::printf("device %s sm_%d%d, %d SMs, L2 %d MiB, %.0f GiB; CUDA runtime %d, driver %d, CUB %d\n", prop.name,
              prop.major, prop.minor, g_sms, g_l2_bytes >> 20, prop.totalGlobalMem / 1073741824.0, runtime, driver,
              CUB_VERSION);
  std::printf("median of %d runs; gocccl grid G = min(tiles, SMs*occupancy*k), k = %d\n", g_runs, g_k);

  Scratch s;
  // Largest cub temp storage needed: query at the largest sizes.
  {
    size_t a = 0, b = 0;
    CK(cub::DeviceReduce::Sum(nullptr, a, static_cast<int*>(nullptr), static_cast<int*>(nullptr), 1 << 28, cudaStream_t{}));
    CK(cub::DeviceReduce::Sum(nullptr, b, static_cast<double*>(nullptr), static_cast<double*>(nullptr), 1 << 28, cudaStream_t{}));
    s.cub_temp_bytes = std::max<size_t>(std::max(a, b), 1 << 20);
    CK(cudaMalloc(&s.cub_temp, s.cub_temp_bytes));
  }
  CK(cudaMalloc(&s.partials, (1 << 20) * 8));
  CK(cudaMalloc(&s.out, 256));
  s.copy_bytes = (1ull << 28) * 8;
  CK(cudaMalloc(&s.copy_dst, s.copy_bytes));

  {
    const double one = time_us([](int) { bench_empty<<<1, 32>>>(); });
    const double two = time_us([](int) {
      bench_empty<<<1, 32>>>();
      bench_empty<<<1, 32>>>();
    });
    std::printf("launch floor: 1 empty kernel %.1f us, 2 back to back %.1f us\n\n", one, two);
  }

  Kernels<int> i32{"256x16", bench_sum_i32_partial, bench_sum_i32_final, 256, 16, 0};
  Kernels<float> f32{"256x16", bench_sum_f32_partial, bench_sum_f32_final, 256, 16, 0};
  Kernels<double> f64{"256x8", bench_sum_f64_partial, bench_sum_f64_final, 256, 8, 0};
  i32.init();
  f32.init();
  f64.init();
  std::printf("occupancy (blocks/SM of _partial): i32 %d, f32 %d, f64 %d\n", i32.occupancy, f32.occupancy,
              f64.occupancy);
  std::printf("n     type      MiB  copy_us copy_GB/s   cub_us  cub_GB/s gocccl_us gocccl_GB/s gocccl/cub  G  bufs  check\n");
  for (int lg : {10, 16, 20, 24, 28})
  {
    const long long n = 1ll << lg;
    main_row("i32", i32, n, s, 100 + lg);
    main_row("f32", f32, n, s, 200 + lg);
    main_row("f64", f64, n, s, 300 + lg);
  }

  std::printf("\ntuning sweep (gocccl)\n");
  std::vector<Kernels<int>> i32s = {
    i32,
    {"128x16", bench_sum_i32_128x16_partial, bench_sum_i32_128x16_final, 128, 16, 0},
    {"256x8", bench_sum_i32_256x8_partial, bench_sum_i32_256x8_final, 256, 8, 0},
    {"256x24", bench_sum_i32_256x24_partial, bench_sum_i32_256x24_final, 256, 24, 0},
    {"256x32", bench_sum_i32_256x32_partial, bench_sum_i32_256x32_final, 256, 32, 0},
    {"512x8", bench_sum_i32_512x8_partial, bench_sum_i32_512x8_final, 512, 8, 0},
    {"512x16", bench_sum_i32_512x16_partial, bench_sum_i32_512x16_final, 512, 16, 0},
    {"1024x4", bench_sum_i32_1024x4_partial, bench_sum_i32_1024x4_final, 1024, 4, 0},
  };
  for (auto& k : i32s) k.init();
  for (int lg : {20, 24, 28})
  {
    Inputs<int> in(1ll << lg, 400 + lg);
    sweep_rows<int>("i32 policies", i32s, in, s, true, {g_k});
    sweep_rows<int>("i32 256x16, k", {i32}, in, s, true, {1, 2, 3, 4, 8});
    if (lg == 28)
    {
      // Misaligned input (d_in + 1): the per-item path.
      const double us = time_gocccl(i32, in, s, g_k, 1);
      std::printf("-- i32 256x16 misaligned (d_in+1), n=2^28-1: %.1f us, %.0f GB/s\n", us,
                  in.bytes() / 1e9 / (us * 1e-6));
    }
  }
  {
    std::vector<Kernels<double>> ks = {
      f64,
      {"256x4", bench_sum_f64_256x4_partial, bench_sum_f64_256x4_final, 256, 4, 0},
      {"256x16", bench_sum_f64_256x16_partial, bench_sum_f64_256x16_final, 256, 16, 0},
      {"512x8", bench_sum_f64_512x8_partial, bench_sum_f64_512x8_final, 512, 8, 0},
    };
    for (auto& k : ks) k.init();
    for (int lg : {25, 27})
    {
      Inputs<double> in(1ll << lg, 500 + lg);
      sweep_rows<double>("f64 policies", ks, in, s, true, {g_k});
    }
  }
  {
    Kernels<unsigned char> u8{"256x32", bench_sum_u8_partial, bench_sum_u8_final, 256, 32, 0};
    std::vector<Kernels<unsigned char>> ks = {
      u8,
      {"256x16", bench_sum_u8_256x16_partial, bench_sum_u8_256x16_final, 256, 16, 0},
      {"256x64", bench_sum_u8_256x64_partial, bench_sum_u8_256x64_final, 256, 64, 0},
      {"512x32", bench_sum_u8_512x32_partial, bench_sum_u8_512x32_final, 512, 32, 0},
    };
    for (auto& k : ks) k.init();
    for (int lg : {28, 30})
    {
      Inputs<unsigned char> in(1ll << lg, 600 + lg);
      sweep_rows<unsigned char>("u8 policies (no cub row: cub sums u8 into a wider type)", ks, in, s, false, {g_k});
    }
  }

  CK(cudaFree(s.cub_temp));
  CK(cudaFree(s.partials));
  CK(cudaFree(s.out));
  CK(cudaFree(s.copy_dst));
  if (g_tsv) std::fclose(g_tsv);
  if (g_failures)
  {
    std::printf("\nreduce_bench: %d result check(s) FAILED\n", g_failures);
    return 1;
  }
  std::printf("\nreduce_bench: all results checked ok\n");
  return 0;
}
