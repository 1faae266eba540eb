// histogram.cu: histograms, vectorized search and merge side by side on the
// same inputs, one TSV row each (bench.cuh's format):
//
//   cub             histogram_even   cub::DeviceHistogram::HistogramEven, 256 bins
//                                    (uint32 over [0, 2^32 - 1), uint64 over
//                                    [0, 2^64 - 1), floats over [0, 1)); uint64 is a
//                                    skipped row on CCCL >= 2.x, which refuses that range
//   cub             histogram_range  cub::DeviceHistogram::HistogramRange, 257 even levels
//   cub             multi_histogram_even  cub::DeviceHistogram::MultiHistogramEven<4, 3>:
//                                    uint8 RGBA pixels (n samples, n/4 pixels), 256 bins
//                                    over [0, 255) for each of R, G, B (uint8 only)
//   cub             merge            cub::DeviceMerge::MergeKeys (CCCL >= 3.0; skipped before)
//   cub             lower_bound      skipped: CUB has no device-level search
//   gocccl-kernels  histogram_even / histogram_range (+ histogram_init), the
//                   templates of kernels/include/gocccl/histogram.cuh,
//                   and multi_histogram_even (+ multi_histogram_init),
//                   dispatched as the Go runtime does (n <= tile: one sweep
//                   block writing the bins; else init, then a sweep over
//                   min(tiles, one wave) blocks); lower_bound (n values in
//                   2^20 sorted items, one thread per value, int64 results);
//                   merge (merge_tiles of n/2 + n/2 keys, after
//                   merge_partition only when the tiles are more than one
//                   wave of resident blocks: runtime/merge.go's dispatch)
//
// for uint32, float32, uint64 and float64. Checks before
// timing: our histograms exactly against a CPU count with the same bin
// formula, CUB's HistogramEven by total count (CUB 1.17 bins integers with a
// truncated scale) and HistogramRange exactly; merges against std::merge; the
// search against std::lower_bound.
// bytes_moved: samples read + bins written; search n (s + 8); merge 2 n s.
//
// Usage: histogram [--runs R] [--sizes 10,16,20,24,28] [--seed S]
//                  [--only histogram,search,merge] (the parts to run; all by default)

#include "bench.cuh"

#include <gocccl/histogram.cuh>
#include <gocccl/merge.cuh>
#include <gocccl/search.cuh>

#include <cub/device/device_histogram.cuh>
#include <cub/version.cuh>
#if CUB_VERSION >= 300000
#include <cub/device/device_merge.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cuda/std/array>
#endif

#include <string>
#include <vector>

constexpr int kThreads = 256;
#include "histogram_ref.cuh" // after kThreads
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
// MultiHistogramEven[uint8], 4 channels, 3 active (the generated entry's
// parameters: four histograms, the fourth null).
__global__ void __launch_bounds__(kThreads) our_multi_even(const uint8_t* d, long long n, int32_t* h0, int32_t* h1, int32_t* h2, long long bins, double scale)
{
  gocccl::multi_histogram_even<kThreads, items_for<uint8_t>(), uint8_t>(d, n, 4, 3, h0, h1, h2, nullptr, bins, bins, bins, 0,
                                                                        0, 0, 0, 0, 255, 255, 255, 0, scale, scale, scale, 0.);
}
__global__ void __launch_bounds__(kThreads) our_multi_init(int32_t* h0, int32_t* h1, int32_t* h2, long long bins)
{
  gocccl::multi_histogram_init<kThreads, items_for<uint8_t>(), uint8_t>(h0, h1, h2, nullptr, bins, bins, bins, 0);
}
template <typename T>
__global__ void __launch_bounds__(kThreads) our_lower(const T* d, long long nd, const T* v, long long nv, int64_t* out)
{
  gocccl::lower_bound<kThreads, 1, T, Less>(d, nd, v, nv, out);
}
// The merge policy of internal/algo.mergePolicy on sm_90: 256 x 15
// four-byte keys at 8 blocks an SM, 128 x 15 eight-byte keys (0: no bound).
template <typename T> __host__ __device__ constexpr int merge_threads() { return 1024 / int(sizeof(T)); }
template <typename T> __host__ __device__ constexpr int merge_min_blocks() { return sizeof(T) == 4 ? 8 : 0; }
constexpr int kMergeItems = 15;
template <typename T>
__global__ void __launch_bounds__(merge_threads<T>(), merge_min_blocks<T>()) our_merge_partition(const T* a, long long na, const T* b, long long nb, int64_t* s, long long tiles)
{
  gocccl::merge_partition<merge_threads<T>(), kMergeItems, T, Less>(a, na, b, nb, s, tiles);
}
template <typename T>
__global__ void __launch_bounds__(merge_threads<T>(), merge_min_blocks<T>()) our_merge_tiles(const T* a, long long na, const T* b, long long nb, T* out, const int64_t* s)
{
  gocccl::merge_tiles<merge_threads<T>(), kMergeItems, T, Less>(a, na, b, nb, out, s);
}

template <typename T> struct Traits;
template <> struct Traits<uint32_t>
{
  static const char* name() { return "uint32"; }
  static uint32_t lower() { return 0; }
  static uint32_t upper() { return 0xFFFFFFFFu; }
};
template <> struct Traits<float>
{
  static const char* name() { return "float32"; }
  static float lower() { return 0.f; }
  static float upper() { return 1.f; }
};
template <> struct Traits<uint64_t>
{
  static const char* name() { return "uint64"; }
  static uint64_t lower() { return 0; }
  static uint64_t upper() { return ~0ull; }
};
template <> struct Traits<double>
{
  static const char* name() { return "float64"; }
  static double lower() { return 0.; }
  static double upper() { return 1.; }
};

// cub_even_may_overflow says whether CUB's HistogramEven (CCCL >= 2.x) refuses
// integer levels [lo, up) with this many bins: its ScaleTransform::Init
// returns cudaErrorInvalidValue when (up - lo) * bins may overflow the
// arithmetic it bins in, 64 bits for the 4- and 8-byte samples here.
template <typename T>
static bool cub_even_may_overflow(int bins, T lo, T up)
{
  if constexpr (std::is_floating_point<T>::value) return false;
  else return (unsigned long long)(up - lo) > ~0ull / (unsigned long long)bins;
}


// gen returns n random items of the range the histograms count.
template <typename T>
std::vector<T> gen(long long n, uint64_t salt)
{
  std::vector<T> v = bench::random_items<T>(n, salt); // uint32: whole range; float32: [0, 1)
  return v;
}

template <typename T>
void bench_histograms(long long n, uint64_t salt)
{
  const char* type = bench::type_name<T>();
  const int bins = 256;
  const T lo = Traits<T>::lower(), up = Traits<T>::upper();
  const std::vector<T> h = gen<T>(n, salt);
  bench::Rotation<T> d(h);
  bench::DeviceBuffer<int32_t> hist(bins);
  std::vector<T> levels(bins + 1);
  for (int i = 0; i <= bins; ++i)
    levels[i] = std::is_floating_point<T>::value ? T(double(i) / bins) : T(mul_div((unsigned long long)(up - lo), i, bins) + lo);
  bench::DeviceBuffer<T> d_levels(levels.size());
  BENCH_CK(cudaMemcpy(d_levels.get(), levels.data(), levels.size() * sizeof(T), cudaMemcpyHostToDevice));

  std::vector<long long> want_even(bins, 0), want_range(bins, 0);
  long long in_even = 0, in_range = 0;
  for (T x : h)
  {
    const int b = ref_bin(x, bins, lo, up);
    if (b >= 0) ++want_even[b], ++in_even;
    if (x >= levels[0] && x < levels[bins])
      ++want_range[std::upper_bound(levels.begin(), levels.end(), x) - levels.begin() - 1], ++in_range;
  }
  auto check = [&](const std::vector<long long>* want, long long total) -> std::string {
    const std::vector<int32_t> got = hist.to_host();
    long long sum = 0;
    for (int i = 0; i < bins; ++i)
    {
      sum += got[i];
      if (want && got[i] != (*want)[i])
        return "bin " + std::to_string(i) + ": " + std::to_string(got[i]) + ", want " + std::to_string((*want)[i]);
    }
    if (sum != total) return "total " + std::to_string(sum) + ", want " + std::to_string(total);
    return "";
  };
  const long long bytes = static_cast<long long>(d.bytes()) + bins * 4;
  auto measure = [&](const char* system, const char* alg, auto&& fn, const std::vector<long long>* want, long long total,
                     const char* note) {
    hist.poison();
    fn(0);
    BENCH_CK(cudaGetLastError());
    BENCH_CK(cudaDeviceSynchronize());
    const std::string bad = check(want, total);
    if (!bad.empty()) bench::fail(system, alg, type, n, bytes, bad);
    else bench::row(system, alg, type, n, bench::time_us(fn), bytes, note);
  };

  // CUB. Since CCCL 2.x, HistogramEven refuses integer levels whose
  // (upper - lower) * bins may overflow its bin arithmetic (64 bits at most,
  // never 128: ScaleTransform::MayOverflow) and returns cudaErrorInvalidValue
  // from the size query already. uint64 over [0, 2^64 - 1) with 256 bins is
  // such a case, so that row is a skip, said why; any other error still ends
  // the program. CUB 1.17 has no such check.
  size_t temp_even = 0, temp_range = 0;
  const cudaError_t even_status =
      cub::DeviceHistogram::HistogramEven(nullptr, temp_even, d.get(0), hist.get(), bins + 1, lo, up, (int)n);
  const bool even_refused = even_status == cudaErrorInvalidValue && cub_even_may_overflow<T>(bins, lo, up);
  if (!even_refused) BENCH_CK(even_status);
  BENCH_CK(cub::DeviceHistogram::HistogramRange(nullptr, temp_range, d.get(0), hist.get(), bins + 1, d_levels.get(), (int)n));
  bench::DeviceBuffer<unsigned char> temp(std::max(even_refused ? size_t(0) : temp_even, temp_range));
  if (even_refused)
    bench::skip("cub", "histogram_even", type, n, bytes,
                "CUB refuses 256 bins over the whole uint64 range: (upper - lower) * bins overflows its 64-bit bin arithmetic");
  else
    measure("cub", "histogram_even", [&](int i) {
      size_t t = temp_even;
      BENCH_CK(cub::DeviceHistogram::HistogramEven(temp.get(), t, d.get(i), hist.get(), bins + 1, lo, up, (int)n));
    }, nullptr, in_even, "256 bins");
  measure("cub", "histogram_range", [&](int i) {
    size_t t = temp_range;
    BENCH_CK(cub::DeviceHistogram::HistogramRange(temp.get(), t, d.get(i), hist.get(), bins + 1, d_levels.get(), (int)n));
  }, &want_range, in_range, "256 bins");

  // gocccl's kernels.
  const long long tile = (long long)kThreads * items_for<T>();
  const double scale = std::is_floating_point<T>::value ? double(T(bins) / (up - lo))
                                                        : double(bins) / double((unsigned long long)(up - lo));
  const int wave_even = one_wave(our_even<T>), wave_range = one_wave(our_range<T>);
  auto launch = [&](bool even, const T* src) {
    const long long tiles = (n + tile - 1) / tile;
    int grid = 1;
    if (n > tile)
    {
      grid = int(std::min<long long>(tiles, even ? wave_even : wave_range));
      our_init<T><<<1, kThreads>>>(hist.get(), bins);
    }
    if (even) our_even<T><<<grid, kThreads>>>(src, n, hist.get(), bins, lo, up, scale);
    else our_range<T><<<grid, kThreads>>>(src, n, hist.get(), bins, d_levels.get());
  };
  const char* note = "256 bins; gocccl templates, Go runtime's dispatch in C++";
  measure("gocccl-kernels", "histogram_even", [&](int i) { launch(true, d.get(i)); }, &want_even, in_even, note);
  measure("gocccl-kernels", "histogram_range", [&](int i) { launch(false, d.get(i)); }, &want_range, in_range, note);
}

// multi_histogram_even: n uint8 samples, RGBA pixels, 256 bins over [0, 255)
// for R, G and B. CUB checked by each channel's total (CUB 1.17 bins
// integers with a truncated scale), ours exactly.
void bench_multi_histogram(long long n, uint64_t salt)
{
  const char* type = "uint8";
  const char* alg = "multi_histogram_even";
  constexpr int channels = 4, active = 3, bins = 256;
  n -= n % channels;
  const long long pixels = n / channels;
  std::vector<uint8_t> h(static_cast<size_t>(n));
  {
    uint64_t s = bench::state().seed ^ (salt * 0x9E3779B97F4A7C15ull) ^ static_cast<uint64_t>(n);
    for (auto& x : h) x = static_cast<uint8_t>(bench::splitmix64(s) >> 56);
  }
  bench::Rotation<uint8_t> d(h);
  bench::DeviceBuffer<int32_t> hist0(bins), hist1(bins), hist2(bins);
  bench::DeviceBuffer<int32_t>* hists[active] = {&hist0, &hist1, &hist2};
  std::vector<long long> want[active];
  long long in[active] = {0, 0, 0};
  for (int c = 0; c < active; ++c) want[c].assign(bins, 0);
  for (long long p = 0; p < pixels; ++p)
    for (int c = 0; c < active; ++c)
    {
      const int x = h[p * channels + c];
      if (x < 255) ++want[c][x * bins / 255], ++in[c];
    }
  const long long bytes = n + active * bins * 4;
  auto measure = [&](const char* system, auto&& fn, bool exact, const char* note) {
    for (auto* b : hists) b->poison();
    fn(0);
    BENCH_CK(cudaGetLastError());
    BENCH_CK(cudaDeviceSynchronize());
    std::string bad;
    for (int c = 0; c < active && bad.empty(); ++c)
    {
      const std::vector<int32_t> got = hists[c]->to_host();
      long long sum = 0;
      for (int i = 0; i < bins; ++i)
      {
        sum += got[i];
        if (exact && bad.empty() && got[i] != want[c][i])
          bad = "channel " + std::to_string(c) + " bin " + std::to_string(i) + ": " + std::to_string(got[i]) + ", want " + std::to_string(want[c][i]);
      }
      if (bad.empty() && sum != in[c]) bad = "channel " + std::to_string(c) + " total " + std::to_string(sum) + ", want " + std::to_string(in[c]);
    }
    if (!bad.empty()) bench::fail(system, alg, type, n, bytes, bad);
    else bench::row(system, alg, type, n, bench::time_us(fn), bytes, note);
  };

#if CUB_VERSION >= 300000 // the C-array overloads are deprecated
  ::cuda::std::array<int32_t*, active> d_hist{hist0.get(), hist1.get(), hist2.get()};
  ::cuda::std::array<int, active> num_levels{bins + 1, bins + 1, bins + 1};
  ::cuda::std::array<uint8_t, active> lower{0, 0, 0}, upper{255, 255, 255};
#else
  int32_t* d_hist[active] = {hist0.get(), hist1.get(), hist2.get()};
  int num_levels[active] = {bins + 1, bins + 1, bins + 1};
  uint8_t lower[active] = {0, 0, 0}, upper[active] = {255, 255, 255};
#endif
  size_t temp_bytes = 0;
  BENCH_CK((cub::DeviceHistogram::MultiHistogramEven<channels, active>(nullptr, temp_bytes, d.get(0), d_hist, num_levels, lower, upper, (int)pixels)));
  bench::DeviceBuffer<unsigned char> temp(temp_bytes);
  measure("cub", [&](int i) {
    size_t t = temp_bytes;
    BENCH_CK((cub::DeviceHistogram::MultiHistogramEven<channels, active>(temp.get(), t, d.get(i), d_hist, num_levels, lower, upper, (int)pixels)));
  }, false, "RGBA, 256 bins x 3 channels");

  const long long tile = (long long)kThreads * items_for<uint8_t>();
  const double scale = double(bins) / 255.;
  const int wave = one_wave(our_multi_even);
  measure("gocccl-kernels", [&](int i) {
    int grid = 1;
    if (n > tile)
    {
      grid = int(std::min<long long>((n + tile - 1) / tile, wave));
      our_multi_init<<<1, kThreads>>>(hist0.get(), hist1.get(), hist2.get(), bins);
    }
    our_multi_even<<<grid, kThreads>>>(d.get(i), n, hist0.get(), hist1.get(), hist2.get(), bins, scale);
  }, true, "RGBA, 256 bins x 3 channels; gocccl templates, Go runtime's dispatch in C++");
}

// lower_bound: n search values in 2^20 sorted items (one thread per value).
template <typename T>
void bench_search(long long n, uint64_t salt)
{
  const char* type = bench::type_name<T>();
  const long long nd = 1 << 20;
  std::vector<T> data = bench::random_items<T>(nd, salt + 50);
  std::sort(data.begin(), data.end());
  const std::vector<T> values = bench::random_items<T>(n, salt);
  const long long bytes = n * static_cast<long long>(sizeof(T) + 8);
  bench::skip("cub", "lower_bound", type, n, bytes, "CUB has no device-level vectorized search");
  bench::DeviceBuffer<T> d_data(nd);
  BENCH_CK(cudaMemcpy(d_data.get(), data.data(), nd * sizeof(T), cudaMemcpyHostToDevice));
  bench::Rotation<T> d_values(values);
  bench::DeviceBuffer<int64_t> out(static_cast<size_t>(n));
  const int grid = int(std::min<long long>((n + kThreads - 1) / kThreads, 5LL * one_wave(our_lower<T>)));
  auto launch = [&](int i) { our_lower<T><<<std::max(grid, 1), kThreads>>>(d_data.get(), nd, d_values.get(i), n, out.get()); };
  out.poison();
  launch(0);
  BENCH_CK(cudaGetLastError());
  BENCH_CK(cudaDeviceSynchronize());
  const std::vector<int64_t> got = out.to_host();
  std::string bad;
  for (long long i = 0; i < n && bad.empty(); i += n > (1ll << 22) ? 61 : 1) // a sample above 2^22
    if (got[i] != std::lower_bound(data.begin(), data.end(), values[i]) - data.begin())
      bad = "result " + std::to_string(i) + " is " + std::to_string(got[i]);
  if (!bad.empty()) bench::fail("gocccl-kernels", "lower_bound", type, n, bytes, bad);
  else
    bench::row("gocccl-kernels", "lower_bound", type, n, bench::time_us(launch), bytes,
               "n values in 2^20 sorted items, int64 results; gocccl templates");
}

// sort_on_device sorts h ascending with cub::DeviceRadixSort: the merge's
// inputs at 2^28 took std::sort most of a minute a type. h holds
// non-negative numbers only (random_items), where the radix order is <'s.
template <typename T>
void sort_on_device(std::vector<T>& h)
{
  const size_t n = h.size();
  if (n == 0) return;
  bench::DeviceBuffer<T> in(n), out(n);
  BENCH_CK(cudaMemcpy(in.get(), h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  size_t temp_bytes = 0;
  BENCH_CK(cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, in.get(), out.get(), n));
  bench::DeviceBuffer<unsigned char> temp(temp_bytes);
  BENCH_CK(cub::DeviceRadixSort::SortKeys(temp.get(), temp_bytes, in.get(), out.get(), n));
  BENCH_CK(cudaMemcpy(h.data(), out.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
  if (!std::is_sorted(h.begin(), h.end()))
  {
    std::fprintf(stderr, "histogram: sort_on_device: %zu keys came back out of order\n", n);
    std::exit(1);
  }
}

// merge of n/2 + n/2 sorted keys.
template <typename T>
void bench_merge(long long n, uint64_t salt)
{
  const char* type = bench::type_name<T>();
  const long long na = n / 2, nb = n - n / 2;
  std::vector<T> a = bench::random_items<T>(na, salt), b = bench::random_items<T>(nb, salt + 7);
  sort_on_device(a);
  sort_on_device(b);
  std::vector<T> want(n);
  std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin(), Less{});
  bench::Rotation<T> d_a(a), d_b(b);
  bench::DeviceBuffer<T> out(static_cast<size_t>(n));
  const long long bytes = 2 * n * static_cast<long long>(sizeof(T));
  auto measure = [&](const char* system, auto&& fn, const char* note) {
    out.poison();
    fn(0);
    BENCH_CK(cudaGetLastError());
    BENCH_CK(cudaDeviceSynchronize());
    if (std::memcmp(out.to_host().data(), want.data(), n * sizeof(T)) != 0)
      bench::fail(system, "merge", type, n, bytes, "merged keys differ from std::merge");
    else bench::row(system, "merge", type, n, bench::time_us(fn), bytes, note);
  };
#if CUB_VERSION >= 300000
  {
    size_t temp_bytes = 0;
    BENCH_CK(cub::DeviceMerge::MergeKeys(nullptr, temp_bytes, d_a.get(0), na, d_b.get(0), nb, out.get(), Less{}));
    bench::DeviceBuffer<unsigned char> temp(temp_bytes);
    measure("cub", [&](int i) {
      size_t t = temp_bytes;
      BENCH_CK(cub::DeviceMerge::MergeKeys(temp.get(), t, d_a.get(i), na, d_b.get(i), nb, out.get(), Less{}));
    }, "n/2 + n/2 keys");
  }
#else
  bench::skip("cub", "merge", type, n, bytes, "cub::DeviceMerge needs CCCL 3.0");
#endif
  constexpr int threads = merge_threads<T>();
  constexpr long long tile = threads * kMergeItems;
  const long long tiles = (n + tile - 1) / tile;
  // As runtime.MergeOp (mergeSearches): one wave of resident tile blocks,
  // or fewer, find their own splits (a null splits pointer, no partition
  // launch, no split storage); more read them from merge_partition.
  int occupancy = 0;
  BENCH_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occupancy, our_merge_tiles<T>, threads, 0));
  const long long resident = std::max(1, occupancy * bench::state().sms);
  const bool search = tiles <= resident;
  bench::DeviceBuffer<int64_t> splits(search ? 0 : static_cast<size_t>(tiles + 1));
  int64_t* d_splits = search ? nullptr : splits.get();
  measure("gocccl-kernels", [&](int i) {
    if (!search)
      our_merge_partition<T><<<int((tiles + threads) / threads), threads>>>(d_a.get(i), na, d_b.get(i), nb, d_splits, tiles);
    if (tiles > 0) our_merge_tiles<T><<<int(tiles), threads>>>(d_a.get(i), na, d_b.get(i), nb, out.get(), d_splits);
  }, search ? "n/2 + n/2 keys; gocccl templates, Go runtime's dispatch in C++ (self-searched splits)"
            : "n/2 + n/2 keys; gocccl templates, Go runtime's dispatch in C++ (partition kernel)");
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "histogram");
  std::printf("# CUB_VERSION %d, GOCCCL_VERSION %d\n", CUB_VERSION, GOCCCL_VERSION);
  for (long long n : bench::sizes())
  {
    if (!bench::wants("histogram")) break;
    bench_histograms<uint32_t>(n, 1);
    bench_histograms<float>(n, 2);
    bench_histograms<uint64_t>(n, 11);
    bench_histograms<double>(n, 12);
    bench_multi_histogram(n, 13);
  }
  for (long long n : bench::sizes())
  {
    if (!bench::wants("search")) break;
    bench_search<uint32_t>(n, 3);
    bench_search<float>(n, 4);
    bench_search<uint64_t>(n, 9);
    bench_search<double>(n, 10);
  }
  for (long long n : bench::sizes())
  {
    if (!bench::wants("merge")) break;
    bench_merge<uint32_t>(n, 5);
    bench_merge<float>(n, 6);
    bench_merge<uint64_t>(n, 7);
    bench_merge<double>(n, 8);
  }
  return bench::finish();
}
