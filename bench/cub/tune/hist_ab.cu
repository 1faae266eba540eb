// hist_ab.cu: the A/B of histogram.cuh's experiments (HistExp, bench/NOTES.md,
// nineteenth session) in one process: every sweep is instantiated with EXP =
// 0 (today's kernels), 1 (HIST_EXP_SHARED: privatized counters through
// red.shared), 2 (HIST_EXP_BINS: 32-bit integer bins, the 1-byte table, the
// branchless range search) and 3 (both), each checked bin for bin against
// the host, then timed twice in alternating order beside CUB's
// DeviceHistogram call on the same inputs:
//   histogram_even   uint8 (256 bins over [0, 255)), uint32, float32, uint64, float64
//   histogram_range  uint32, float32, uint64, float64 (256 bins, levels as bench/cub/histogram.cu's)
//   multi_histogram_even  uint8 RGBA, 3 of 4 channels, 256 bins each
// with the grid the Go runtime launches (one wave of sweep blocks after the
// init kernel). Rows in bench.cuh's format, system "gocccl-expE" (and
// "gocccl-expE-2" for the second timing) or "cub"; then "# ab" lines: each
// case's µs for EXP 0..3 (the mean of the two timings), their ratios to EXP
// 0 and EXP 0's ratio to CUB.
//
// Build and run on the GPU machine, from the repository root:
//   nvcc -std=c++17 -O3 -arch=sm_90 -Ikernels/include -Ibench/cub \
//     -o /tmp/hist_ab bench/cub/tune/hist_ab.cu
//   /tmp/hist_ab --sizes 24,28
#include "bench.cuh"

#include <gocccl/histogram.cuh>

#include <cub/device/device_histogram.cuh>
#include <cub/version.cuh>
#if CUB_VERSION >= 300000
#include <cuda/std/array>
#endif

#include <algorithm>
#include <map>
#include <string>
#include <vector>

constexpr int kThreads = 256;
constexpr int kBins = 256;
#include "histogram_ref.cuh" // after kThreads
template <typename T> __host__ __device__ constexpr int items_for() { return sizeof(T) == 1 ? 32 : (sizeof(T) == 2 ? 32 : 64 / int(sizeof(T))); }

// Entry points as gocccl-gen writes them, one per experiment.
template <typename T, int E>
__global__ void __launch_bounds__(kThreads) ab_even(const T* d, long long n, int32_t* h, long long bins, T lo, T up, double scale)
{
  gocccl::histogram_even<kThreads, items_for<T>(), T, const T*, E>(d, n, h, bins, lo, up, scale);
}
template <typename T, int E>
__global__ void __launch_bounds__(kThreads) ab_range(const T* d, long long n, int32_t* h, long long bins, const T* levels)
{
  gocccl::histogram_range<kThreads, items_for<T>(), T, const T*, const T*, E>(d, n, h, bins, levels);
}
template <typename T>
__global__ void __launch_bounds__(kThreads) ab_init(int32_t* h, long long bins)
{
  gocccl::histogram_init<kThreads, items_for<T>(), T>(h, bins);
}
template <int E>
__global__ void __launch_bounds__(kThreads) ab_multi(const uint8_t* d, long long n, int32_t* h0, int32_t* h1, int32_t* h2, long long bins, double scale)
{
  gocccl::multi_histogram_even<kThreads, items_for<uint8_t>(), uint8_t, const uint8_t*, E>(
    d, n, 4, 3, h0, h1, h2, nullptr, bins, bins, bins, 0, 0, 0, 0, 0, 255, 255, 255, 0, scale, scale, scale, 0.);
}
__global__ void __launch_bounds__(kThreads) ab_multi_init(int32_t* h0, int32_t* h1, int32_t* h2, long long bins)
{
  gocccl::multi_histogram_init<kThreads, items_for<uint8_t>(), uint8_t>(h0, h1, h2, nullptr, bins, bins, bins, 0);
}

template <typename T> struct Levels;
template <> struct Levels<uint8_t> { static uint8_t lower() { return 0; } static uint8_t upper() { return 255; } };
template <> struct Levels<uint32_t> { static uint32_t lower() { return 0; } static uint32_t upper() { return 0xFFFFFFFFu; } };
template <> struct Levels<float> { static float lower() { return 0.f; } static float upper() { return 1.f; } };
// uint64: CUB refuses 256 bins over the whole range ((upper - lower) * bins
// must fit 64 bits: bench/cub/histogram.cu), so 2^55 wide.
template <> struct Levels<uint64_t> { static uint64_t lower() { return 0; } static uint64_t upper() { return 1ull << 55; } };
template <> struct Levels<double> { static double lower() { return 0.; } static double upper() { return 1.; } };

template <typename T> const char* name_of() { return bench::type_name<T>(); }
template <> const char* name_of<uint8_t>() { return "uint8"; }

// Every case's timings: key "alg type n" -> system -> µs of each timing.
static std::map<std::string, std::map<std::string, std::vector<double>>> timings;

// samples returns n samples: uint8 uniform bytes, uint64 below 2^56 (half of
// them counted), the others bench::random_items (uint32 the whole range,
// floats in [0, 1)).
template <typename T>
static std::vector<T> samples(long long n, uint64_t salt)
{
  if constexpr (sizeof(T) == 1)
  {
    std::vector<T> v(static_cast<size_t>(n));
    uint64_t s = bench::state().seed ^ (salt * 0x9E3779B97F4A7C15ull) ^ static_cast<uint64_t>(n);
    for (auto& x : v) x = static_cast<T>(bench::splitmix64(s) >> 56);
    return v;
  }
  else
  {
    std::vector<T> v = bench::random_items<T>(n, salt);
    if constexpr (std::is_same<T, uint64_t>::value)
      for (auto& x : v) x >>= 8;
    return v;
  }
}

// Times fn for system sys after checking its result with check ("" or what is wrong).
template <typename F, typename C>
static void measure(const char* sys, const char* alg, const char* type, long long n, long long bytes, F&& fn, C&& check,
                    const char* note, bool timed_again)
{
  fn(0);
  BENCH_CK(cudaGetLastError());
  BENCH_CK(cudaDeviceSynchronize());
  const std::string bad = check();
  if (!bad.empty())
  {
    bench::fail(sys, alg, type, n, bytes, bad);
    return;
  }
  const double us = bench::time_us(fn);
  const std::string system = timed_again ? std::string(sys) + "-2" : std::string(sys);
  bench::row(system.c_str(), alg, type, n, us, bytes, note);
  timings[std::string(alg) + " " + type + " " + std::to_string(n)][sys].push_back(us);
}

template <typename T>
static void bench_single(long long n, uint64_t salt, bool range)
{
  const char* type = name_of<T>();
  const char* alg = range ? "histogram_range" : "histogram_even";
  const T lo = Levels<T>::lower(), up = Levels<T>::upper();
  const std::vector<T> h = samples<T>(n, salt);
  bench::Rotation<T> d(h);
  bench::DeviceBuffer<int32_t> hist(kBins);
  std::vector<T> levels(kBins + 1);
  for (int i = 0; i <= kBins; ++i)
    levels[i] = std::is_floating_point<T>::value ? T(double(i) / kBins) : T(mul_div((unsigned long long)(up - lo), i, kBins) + lo);
  bench::DeviceBuffer<T> d_levels(levels.size());
  BENCH_CK(cudaMemcpy(d_levels.get(), levels.data(), levels.size() * sizeof(T), cudaMemcpyHostToDevice));
  std::vector<long long> want(kBins, 0);
  for (T x : h)
  {
    if (range)
    {
      if (x >= levels[0] && x < levels[kBins]) ++want[std::upper_bound(levels.begin(), levels.end(), x) - levels.begin() - 1];
    }
    else if (const int b = ref_bin(x, kBins, lo, up); b >= 0)
      ++want[b];
  }
  auto check = [&]() -> std::string {
    const std::vector<int32_t> got = hist.to_host();
    for (int i = 0; i < kBins; ++i)
      if (got[i] != want[i]) return "bin " + std::to_string(i) + ": " + std::to_string(got[i]) + ", want " + std::to_string(want[i]);
    return "";
  };
  const long long bytes = static_cast<long long>(n * sizeof(T)) + kBins * 4;

  size_t temp_bytes = 0;
  if (range) BENCH_CK(cub::DeviceHistogram::HistogramRange(nullptr, temp_bytes, d.get(0), hist.get(), kBins + 1, d_levels.get(), (int)n));
  else BENCH_CK(cub::DeviceHistogram::HistogramEven(nullptr, temp_bytes, d.get(0), hist.get(), kBins + 1, lo, up, (int)n));
  bench::DeviceBuffer<unsigned char> temp(temp_bytes);
  auto cub_call = [&](int i) {
    size_t t = temp_bytes;
    if (range) BENCH_CK(cub::DeviceHistogram::HistogramRange(temp.get(), t, d.get(i), hist.get(), kBins + 1, d_levels.get(), (int)n));
    else BENCH_CK(cub::DeviceHistogram::HistogramEven(temp.get(), t, d.get(i), hist.get(), kBins + 1, lo, up, (int)n));
  };
  // CUB's integer even bins are checked by their total only (its arithmetic
  // differs between versions); the rest bin for bin.
  long long counted = 0;
  for (long long w : want) counted += w;
  auto cub_check = [&]() -> std::string {
    if (std::is_floating_point<T>::value || range) return check();
    const std::vector<int32_t> got = hist.to_host();
    long long sum = 0;
    for (int32_t g : got) sum += g;
    return sum == counted ? "" : "total " + std::to_string(sum) + ", want " + std::to_string(counted);
  };
  hist.poison();
  measure("cub", alg, type, n, bytes, cub_call, cub_check, "256 bins", false);

  const long long tile = (long long)kThreads * items_for<T>();
  const double scale = std::is_floating_point<T>::value ? double(T(kBins) / (up - lo)) : double(kBins) / double((unsigned long long)(up - lo));
  auto ours = [&](auto even_kernel, auto range_kernel, const char* sys, bool again) {
    const int wave = range ? one_wave(range_kernel) : one_wave(even_kernel);
    auto call = [&](int i) {
      int grid = 1;
      if (n > tile)
      {
        grid = int(std::min<long long>((n + tile - 1) / tile, wave));
        ab_init<T><<<1, kThreads>>>(hist.get(), kBins);
      }
      if (range) range_kernel<<<grid, kThreads>>>(d.get(i), n, hist.get(), kBins, d_levels.get());
      else even_kernel<<<grid, kThreads>>>(d.get(i), n, hist.get(), kBins, lo, up, scale);
    };
    hist.poison();
    measure(sys, alg, type, n, bytes, call, check, "256 bins; one wave after the init, as the Go runtime", again);
  };
  for (int pass = 0; pass < 2; ++pass)
  {
    const bool again = pass == 1;
    if (pass == 0)
    {
      ours(ab_even<T, 0>, ab_range<T, 0>, "gocccl-exp0", again);
      ours(ab_even<T, 1>, ab_range<T, 1>, "gocccl-exp1", again);
      ours(ab_even<T, 2>, ab_range<T, 2>, "gocccl-exp2", again);
      ours(ab_even<T, 3>, ab_range<T, 3>, "gocccl-exp3", again);
    }
    else
    {
      ours(ab_even<T, 3>, ab_range<T, 3>, "gocccl-exp3", again);
      ours(ab_even<T, 2>, ab_range<T, 2>, "gocccl-exp2", again);
      ours(ab_even<T, 1>, ab_range<T, 1>, "gocccl-exp1", again);
      ours(ab_even<T, 0>, ab_range<T, 0>, "gocccl-exp0", again);
    }
  }
}

static void bench_multi(long long n, uint64_t salt)
{
  const char* type = "uint8";
  const char* alg = "multi_histogram_even";
  constexpr int channels = 4, active = 3;
  n -= n % channels;
  const long long pixels = n / channels;
  const std::vector<uint8_t> h = samples<uint8_t>(n, salt);
  bench::Rotation<uint8_t> d(h);
  bench::DeviceBuffer<int32_t> hist0(kBins), hist1(kBins), hist2(kBins);
  bench::DeviceBuffer<int32_t>* hists[active] = {&hist0, &hist1, &hist2};
  std::vector<long long> want[active];
  for (int c = 0; c < active; ++c) want[c].assign(kBins, 0);
  for (long long p = 0; p < pixels; ++p)
    for (int c = 0; c < active; ++c)
    {
      const int x = h[p * channels + c];
      if (x < 255) ++want[c][x * kBins / 255];
    }
  auto check = [&]() -> std::string {
    for (int c = 0; c < active; ++c)
    {
      const std::vector<int32_t> got = hists[c]->to_host();
      for (int i = 0; i < kBins; ++i)
        if (got[i] != want[c][i])
          return "channel " + std::to_string(c) + " bin " + std::to_string(i) + ": " + std::to_string(got[i]) + ", want " + std::to_string(want[c][i]);
    }
    return "";
  };
  const long long bytes = n + active * kBins * 4;
#if CUB_VERSION >= 300000
  ::cuda::std::array<int32_t*, active> d_hist{hist0.get(), hist1.get(), hist2.get()};
  ::cuda::std::array<int, active> num_levels{kBins + 1, kBins + 1, kBins + 1};
  ::cuda::std::array<uint8_t, active> lower{0, 0, 0}, upper{255, 255, 255};
#else
  int32_t* d_hist[active] = {hist0.get(), hist1.get(), hist2.get()};
  int num_levels[active] = {kBins + 1, kBins + 1, kBins + 1};
  uint8_t lower[active] = {0, 0, 0}, upper[active] = {255, 255, 255};
#endif
  size_t temp_bytes = 0;
  BENCH_CK((cub::DeviceHistogram::MultiHistogramEven<channels, active>(nullptr, temp_bytes, d.get(0), d_hist, num_levels, lower, upper, (int)pixels)));
  bench::DeviceBuffer<unsigned char> temp(temp_bytes);
  auto cub_call = [&](int i) {
    size_t t = temp_bytes;
    BENCH_CK((cub::DeviceHistogram::MultiHistogramEven<channels, active>(temp.get(), t, d.get(i), d_hist, num_levels, lower, upper, (int)pixels)));
  };
  for (auto* b : hists) b->poison();
  auto cub_check = [&]() -> std::string { // totals only, as for the single histograms
    for (int c = 0; c < active; ++c)
    {
      long long sum = 0, counted = 0;
      for (int32_t g : hists[c]->to_host()) sum += g;
      for (long long w : want[c]) counted += w;
      if (sum != counted) return "channel " + std::to_string(c) + " total " + std::to_string(sum) + ", want " + std::to_string(counted);
    }
    return "";
  };
  measure("cub", alg, type, n, bytes, cub_call, cub_check, "RGBA, 256 bins x 3 channels", false);

  const long long tile = (long long)kThreads * items_for<uint8_t>();
  const double scale = double(kBins) / 255.;
  auto ours = [&](auto kernel, const char* sys, bool again) {
    const int wave = one_wave(kernel);
    auto call = [&](int i) {
      int grid = 1;
      if (n > tile)
      {
        grid = int(std::min<long long>((n + tile - 1) / tile, wave));
        ab_multi_init<<<1, kThreads>>>(hist0.get(), hist1.get(), hist2.get(), kBins);
      }
      kernel<<<grid, kThreads>>>(d.get(i), n, hist0.get(), hist1.get(), hist2.get(), kBins, scale);
    };
    for (auto* b : hists) b->poison();
    measure(sys, alg, type, n, bytes, call, check, "RGBA, 256 bins x 3 channels; one wave after the init", again);
  };
  ours(ab_multi<0>, "gocccl-exp0", false);
  ours(ab_multi<1>, "gocccl-exp1", false);
  ours(ab_multi<2>, "gocccl-exp2", false);
  ours(ab_multi<3>, "gocccl-exp3", false);
  ours(ab_multi<3>, "gocccl-exp3", true);
  ours(ab_multi<2>, "gocccl-exp2", true);
  ours(ab_multi<1>, "gocccl-exp1", true);
  ours(ab_multi<0>, "gocccl-exp0", true);
}

static double mean(const std::vector<double>& v)
{
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? NAN : s / double(v.size());
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "hist_ab");
  std::printf("# CUB_VERSION %d, GOCCCL_VERSION %d\n", CUB_VERSION, GOCCCL_VERSION);
  for (long long n : bench::sizes())
  {
    bench_single<uint8_t>(n, 21, false);
    bench_single<uint32_t>(n, 1, false);
    bench_single<float>(n, 2, false);
    bench_single<uint64_t>(n, 11, false);
    bench_single<double>(n, 12, false);
    bench_single<uint32_t>(n, 1, true);
    bench_single<float>(n, 2, true);
    bench_single<uint64_t>(n, 11, true);
    bench_single<double>(n, 12, true);
    bench_multi(n, 13);
  }
  std::printf("# ab\tcase\texp0_us\texp1_us\texp2_us\texp3_us\texp1/exp0\texp2/exp0\texp3/exp0\texp0/cub\tbest/cub\n");
  for (const auto& kv : timings)
  {
    const std::string& key = kv.first;
    const auto& sys = kv.second;
    auto at = [&](const char* s) { auto it = sys.find(s); return it == sys.end() ? NAN : mean(it->second); };
    const double e0 = at("gocccl-exp0"), e1 = at("gocccl-exp1"), e2 = at("gocccl-exp2"), e3 = at("gocccl-exp3"), cub = at("cub");
    const double best = std::min(std::min(e0, e1), std::min(e2, e3));
    std::printf("# ab\t%s\t%.2f\t%.2f\t%.2f\t%.2f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\n", key.c_str(), e0, e1, e2, e3, e1 / e0, e2 / e0,
                e3 / e0, e0 / cub, best / cub);
  }
  return bench::finish();
}
