// histogram.cu: gocccl's histogram, search and merge kernels against CUB's
// device-level calls, in one process, on the same inputs.
//
//   cub     cub::DeviceHistogram::HistogramEven / HistogramRange (256 bins;
//           uint32 samples over [0, 2^32 - 1), float32 over [0, 1));
//           cub::DeviceMerge::MergeKeys where CUB has it (CCCL >= 3.0).
//   gocccl  gocccl::histogram_even / histogram_range (+ histogram_init), the
//           templates of kernels/include/gocccl/histogram.cuh, dispatched as
//           the Go runtime does (n <= tile: one sweep block writing the bins;
//           else init, then a sweep over min(tiles, one wave) blocks);
//           gocccl::lower_bound (2^20 sorted data, n values);
//           gocccl::merge_partition + merge_tiles (n/2 + n/2 keys).
// Each figure is the median of kRuns event-timed calls after warm-up; inputs
// rotate over buffers that together exceed the L2 several times. Results are
// checked before timing: our histograms exactly against a CPU count with
// the same bin formula, CUB's by total count (CUB 1.17 bins integers with a
// truncated scale), merges by sortedness and the search by spot checks.
//
// Output: TSV rows  system<TAB>algorithm<TAB>type<TAB>n<TAB>median_us<TAB>bytes_moved
//
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -I kernels/include bench/cub/histogram.cu -o histogram_bench
// Usage: histogram_bench [--runs R] [--max-log2 K]   (defaults 25, 28)

#include <gocccl/histogram.cuh>
#include <gocccl/merge.cuh>
#include <gocccl/search.cuh>

#include <cub/device/device_histogram.cuh>
#include <cub/version.cuh>
#if CUB_VERSION >= 300000
#include <cub/device/device_merge.cuh>
#endif

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
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

static void fail(const char* what)
{
  std::fprintf(stderr, "check failed: %s\n", what);
  std::exit(1);
}

static int g_runs = 25;

constexpr int kThreads = 256;
template <typename T> __host__ __device__ constexpr int items_for() { return sizeof(T) == 1 ? 32 : (sizeof(T) == 2 ? 32 : 64 / int(sizeof(T))); }

struct Less
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const { return a < b; }
};

// Entry points as gocccl-gen writes them.
template <typename T>
__global__ void __launch_bounds__(kThreads) our_even(const T* d, long long n, int32_t* h, long long bins, T lo, T up, double scale)
{
  gocccl::histogram_even<kThreads, items_for<T>(), T>(d, n, h, bins, lo, up, scale);
}
template <typename T>
__global__ void __launch_bounds__(kThreads) our_range(const T* d, long long n, int32_t* h, long long bins, const T* levels)
{
  gocccl::histogram_range<kThreads, items_for<T>(), T>(d, n, h, bins, levels);
}
template <typename T>
__global__ void __launch_bounds__(kThreads) our_init(int32_t* h, long long bins)
{
  gocccl::histogram_init<kThreads, items_for<T>(), T>(h, bins);
}
template <typename T>
__global__ void __launch_bounds__(kThreads) our_lower(const T* d, long long nd, const T* v, long long nv, int64_t* out)
{
  gocccl::lower_bound<kThreads, 1, T, Less>(d, nd, v, nv, out);
}
template <typename T>
__global__ void __launch_bounds__(kThreads) our_merge_partition(const T* a, long long na, const T* b, long long nb, int64_t* s, long long tiles)
{
  gocccl::merge_partition<kThreads, 32 / int(sizeof(T)), T, Less>(a, na, b, nb, s, tiles);
}
template <typename T>
__global__ void __launch_bounds__(kThreads) our_merge_tiles(const T* a, long long na, const T* b, long long nb, T* out, const int64_t* s)
{
  gocccl::merge_tiles<kThreads, 32 / int(sizeof(T)), T, Less>(a, na, b, nb, out, s);
}

static int g_sms = 0;

template <typename K>
static int one_wave(K kernel)
{
  int occ = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kernel, kThreads, 0));
  return std::max(1, occ * g_sms);
}

// Median of g_runs event-timed calls of f(i) after warm-up, in microseconds.
static double time_us(const std::function<void(int)>& f)
{
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i) f(i);
  CK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int i = 0; i < g_runs; ++i)
  {
    CK(cudaEventRecord(a));
    f(i);
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms * 1000.0f);
  }
  CK(cudaGetLastError());
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

static void row(const char* sys, const char* alg, const char* type, long long n, double us, double bytes)
{
  std::printf("%s\t%s\t%s\t%lld\t%.2f\t%.0f\n", sys, alg, type, n, us, bytes);
  std::fflush(stdout);
}

// Buffers that together exceed the L2 (50 MB on the H200) four times.
static int rotation(size_t bytes) { return int(std::max<size_t>(2, std::min<size_t>(16, (200u << 20) / std::max<size_t>(bytes, 1) + 1))); }

template <typename T> struct Traits;
template <> struct Traits<uint32_t>
{
  static const char* name() { return "uint32"; }
  static uint32_t lower() { return 0; }
  static uint32_t upper() { return 0xFFFFFFFFu; }
  static uint32_t gen(std::mt19937_64& r) { return uint32_t(r()); }
};
template <> struct Traits<float>
{
  static const char* name() { return "float32"; }
  static float lower() { return 0.f; }
  static float upper() { return 1.f; }
  static float gen(std::mt19937_64& r) { return float((r() >> 40) * 0x1p-24); }
};

// The CPU reference of our bins (runtime/histogram.go's formula).
template <typename T>
static int ref_bin(T x, int bins, T lo, T up)
{
  if (!(x >= lo && x < up)) return -1;
  if constexpr (std::is_floating_point<T>::value)
  {
    const T scale = T(bins) / (up - lo);
    const T f = (x - lo) * scale;
    int b = f < T(bins) ? int(f) : bins - 1;
    return std::min(b, bins - 1);
  }
  else
  {
    return int((unsigned long long)(x - lo) * (unsigned long long)bins / (unsigned long long)(up - lo));
  }
}

static long long total(const std::vector<long long>& v)
{
  long long s = 0;
  for (long long x : v) s += x;
  return s;
}

template <typename T>
static void bench_histograms(long long n)
{
  const int bins = 256;
  const T lo = Traits<T>::lower(), up = Traits<T>::upper();
  const int nbuf = rotation(n * sizeof(T));
  std::vector<T> h(n);
  std::mt19937_64 r(n * 7 + sizeof(T));
  for (auto& x : h) x = Traits<T>::gen(r);
  std::vector<T*> d(nbuf);
  for (auto& p : d)
  {
    CK(cudaMalloc(&p, std::max<size_t>(1, n * sizeof(T))));
    CK(cudaMemcpy(p, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  }
  int32_t* d_hist;
  CK(cudaMalloc(&d_hist, bins * sizeof(int32_t)));
  std::vector<T> levels(bins + 1);
  for (int i = 0; i <= bins; ++i)
  {
    levels[i] = std::is_floating_point<T>::value ? T(double(i) / bins) : T((unsigned long long)(up - lo) * i / bins + lo);
  }
  T* d_levels;
  CK(cudaMalloc(&d_levels, levels.size() * sizeof(T)));
  CK(cudaMemcpy(d_levels, levels.data(), levels.size() * sizeof(T), cudaMemcpyHostToDevice));

  std::vector<long long> want_even(bins, 0), want_range(bins, 0);
  long long in_range = 0;
  for (T x : h)
  {
    const int b = ref_bin(x, bins, lo, up);
    if (b >= 0) { ++want_even[b]; ++in_range; }
    if (x >= levels[0] && x < levels[bins])
    {
      ++want_range[std::upper_bound(levels.begin(), levels.end(), x) - levels.begin() - 1];
    }
  }
  auto check = [&](const std::vector<long long>* want, long long total, const char* what) {
    std::vector<int32_t> got(bins);
    CK(cudaMemcpy(got.data(), d_hist, bins * sizeof(int32_t), cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (int i = 0; i < bins; ++i)
    {
      sum += got[i];
      if (want && got[i] != (*want)[i]) { std::fprintf(stderr, "%s bin %d: %d want %lld\n", what, i, got[i], (*want)[i]); fail(what); }
    }
    if (sum != total) { std::fprintf(stderr, "%s: total %lld want %lld\n", what, sum, total); fail(what); }
  };
  const double bytes = double(n) * sizeof(T) + bins * 4.0;

  // CUB.
  size_t temp_even = 0, temp_range = 0;
  CK(cub::DeviceHistogram::HistogramEven(nullptr, temp_even, d[0], d_hist, bins + 1, lo, up, (int)n));
  CK(cub::DeviceHistogram::HistogramRange(nullptr, temp_range, d[0], d_hist, bins + 1, d_levels, (int)n));
  void* temp;
  CK(cudaMalloc(&temp, std::max<size_t>(1, std::max(temp_even, temp_range))));
  CK(cub::DeviceHistogram::HistogramEven(temp, temp_even, d[0], d_hist, bins + 1, lo, up, (int)n));
  check(nullptr, in_range, "cub HistogramEven");
  row("cub", "HistogramEven", Traits<T>::name(), n, time_us([&](int i) {
        cub::DeviceHistogram::HistogramEven(temp, temp_even, d[i % nbuf], d_hist, bins + 1, lo, up, (int)n);
      }), bytes);
  CK(cub::DeviceHistogram::HistogramRange(temp, temp_range, d[0], d_hist, bins + 1, d_levels, (int)n));
  check(&want_range, total(want_range), "cub HistogramRange");
  row("cub", "HistogramRange", Traits<T>::name(), n, time_us([&](int i) {
        cub::DeviceHistogram::HistogramRange(temp, temp_range, d[i % nbuf], d_hist, bins + 1, d_levels, (int)n);
      }), bytes);

  // gocccl.
  const long long tile = (long long)kThreads * items_for<T>();
  const double scale = std::is_floating_point<T>::value ? double(T(bins) / (up - lo)) : double(bins) / double((unsigned long long)(up - lo));
  auto launch = [&](bool even, const T* src) {
    const long long tiles = (n + tile - 1) / tile;
    int grid = 1;
    if (n > tile)
    {
      grid = int(std::min<long long>(tiles, even ? one_wave(our_even<T>) : one_wave(our_range<T>)));
      our_init<T><<<1, kThreads>>>(d_hist, bins);
    }
    if (even) our_even<T><<<grid, kThreads>>>(src, n, d_hist, bins, lo, up, scale);
    else our_range<T><<<grid, kThreads>>>(src, n, d_hist, bins, d_levels);
  };
  CK(cudaMemset(d_hist, 0x55, bins * 4));
  launch(true, d[0]);
  check(&want_even, in_range, "gocccl histogram_even");
  row("gocccl", "HistogramEven", Traits<T>::name(), n, time_us([&](int i) { launch(true, d[i % nbuf]); }), bytes);
  CK(cudaMemset(d_hist, 0x55, bins * 4));
  launch(false, d[0]);
  check(&want_range, total(want_range), "gocccl histogram_range");
  row("gocccl", "HistogramRange", Traits<T>::name(), n, time_us([&](int i) { launch(false, d[i % nbuf]); }), bytes);

  for (auto p : d) CK(cudaFree(p));
  CK(cudaFree(d_hist));
  CK(cudaFree(d_levels));
  CK(cudaFree(temp));
}

// LowerBound: n search values in 2^20 sorted uint32 (one thread per value).
static void bench_search(long long n)
{
  const long long nd = 1 << 20;
  std::mt19937_64 r(n + 3);
  std::vector<uint32_t> data(nd), values(n);
  for (auto& x : data) x = uint32_t(r());
  std::sort(data.begin(), data.end());
  for (auto& x : values) x = uint32_t(r());
  uint32_t *d_data, *d_values;
  int64_t* d_out;
  CK(cudaMalloc(&d_data, nd * 4));
  CK(cudaMalloc(&d_values, std::max<long long>(1, n) * 4));
  CK(cudaMalloc(&d_out, std::max<long long>(1, n) * 8));
  CK(cudaMemcpy(d_data, data.data(), nd * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d_values, values.data(), n * 4, cudaMemcpyHostToDevice));
  const int grid = int(std::min<long long>((n + kThreads - 1) / kThreads, 5LL * one_wave(our_lower<uint32_t>)));
  auto launch = [&] { our_lower<uint32_t><<<std::max(grid, 1), kThreads>>>(d_data, nd, d_values, n, d_out); };
  launch();
  std::vector<int64_t> got(n);
  CK(cudaMemcpy(got.data(), d_out, n * 8, cudaMemcpyDeviceToHost));
  for (long long i = 0; i < n; i += std::max<long long>(1, n / 1000))
  {
    if (got[i] != std::lower_bound(data.begin(), data.end(), values[i]) - data.begin()) fail("gocccl lower_bound");
  }
  row("gocccl", "LowerBound", "uint32", n, time_us([&](int) { launch(); }), double(n) * 12);
  CK(cudaFree(d_data));
  CK(cudaFree(d_values));
  CK(cudaFree(d_out));
}

// Merge of n/2 + n/2 sorted uint32 keys.
static void bench_merge(long long n)
{
  const long long na = n / 2, nb = n - n / 2;
  std::mt19937_64 r(n + 5);
  std::vector<uint32_t> a(na), b(nb);
  for (auto& x : a) x = uint32_t(r());
  for (auto& x : b) x = uint32_t(r());
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::vector<uint32_t> want(n);
  std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin());
  uint32_t *d_a, *d_b, *d_out;
  CK(cudaMalloc(&d_a, std::max<long long>(1, na) * 4));
  CK(cudaMalloc(&d_b, std::max<long long>(1, nb) * 4));
  CK(cudaMalloc(&d_out, std::max<long long>(1, n) * 4));
  CK(cudaMemcpy(d_a, a.data(), na * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d_b, b.data(), nb * 4, cudaMemcpyHostToDevice));
  const double bytes = double(n) * 8;
  auto verify = [&](const char* what) {
    std::vector<uint32_t> got(n);
    CK(cudaMemcpy(got.data(), d_out, n * 4, cudaMemcpyDeviceToHost));
    if (got != want) fail(what);
  };
#if CUB_VERSION >= 300000
  {
    size_t temp_bytes = 0;
    CK(cub::DeviceMerge::MergeKeys(nullptr, temp_bytes, d_a, na, d_b, nb, d_out, Less{}));
    void* temp;
    CK(cudaMalloc(&temp, std::max<size_t>(1, temp_bytes)));
    CK(cub::DeviceMerge::MergeKeys(temp, temp_bytes, d_a, na, d_b, nb, d_out, Less{}));
    verify("cub MergeKeys");
    row("cub", "Merge", "uint32", n, time_us([&](int) { cub::DeviceMerge::MergeKeys(temp, temp_bytes, d_a, na, d_b, nb, d_out, Less{}); }), bytes);
    CK(cudaFree(temp));
  }
#endif
  constexpr long long tile = kThreads * 8;
  const long long tiles = (n + tile - 1) / tile;
  int64_t* splits;
  CK(cudaMalloc(&splits, (tiles + 1) * 8));
  auto launch = [&] {
    our_merge_partition<uint32_t><<<int((tiles + kThreads) / kThreads), kThreads>>>(d_a, na, d_b, nb, splits, tiles);
    if (tiles > 0) our_merge_tiles<uint32_t><<<int(tiles), kThreads>>>(d_a, na, d_b, nb, d_out, splits);
  };
  launch();
  verify("gocccl merge");
  row("gocccl", "Merge", "uint32", n, time_us([&](int) { launch(); }), bytes);
  CK(cudaFree(splits));
  CK(cudaFree(d_a));
  CK(cudaFree(d_b));
  CK(cudaFree(d_out));
}

int main(int argc, char** argv)
{
  int max_log2 = 28;
  for (int i = 1; i + 1 < argc; i += 2)
  {
    if (!std::strcmp(argv[i], "--runs")) g_runs = std::max(20, std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--max-log2")) max_log2 = std::atoi(argv[i + 1]);
  }
  CK(cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, 0));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# %s, CUB %d, gocccl %d, median of %d runs\n", prop.name, CUB_VERSION, GOCCCL_VERSION, g_runs);
  std::printf("system\talgorithm\ttype\tn\tmedian_us\tbytes_moved\n");
  for (int lg : {10, 16, 20, 24, 28})
  {
    if (lg > max_log2) break;
    const long long n = 1LL << lg;
    bench_histograms<uint32_t>(n);
    bench_histograms<float>(n);
    bench_search(n);
    bench_merge(n);
  }
  return 0;
}
