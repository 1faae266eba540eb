// segmented.cu: CUB's segmented and fused reductions, reduce-by-key and
// adjacent difference, next to gocccl's own kernel templates instantiated
// here with simple functors, on the same inputs, in one process.
//
// For uint32 and float32, n = 2^10, 2^16, 2^20, 2^24, 2^28:
//   SegmentedReduce      cub::DeviceSegmentedReduce::Reduce (max for uint32,
//                        sum for float32) over 1024-item segments (offsets
//                        k * 1024, one buffer, begin = off, end = off + 1);
//                        gocccl: segmented_reduce_warp / _block, dispatched
//                        as runtime.SegmentedReduce does, and each kernel alone
//   ReduceByKey          cub::DeviceReduce::ReduceByKey, uint32 keys in runs
//                        of 7, values of the type, sum; gocccl:
//                        reduce_by_key_init + reduce_by_key, as
//                        runtime.ReduceByKey
//   AdjacentDifference   cub::DeviceAdjacentDifference::SubtractLeftCopy,
//                        a - b; gocccl: adjacent_difference_left
//   TransformReduce      cub::DeviceReduce::TransformReduce (CCCL >= 2.8;
//                        -DGOCCCL_NO_CUB_TRANSFORM_REDUCE leaves it out),
//                        sum of squares into double for float32, sum of x & 255
//                        for uint32; gocccl: transform_reduce_partial + _final
//                        (or _single when n <= tile), as runtime.TransformReduce
// Each figure is the median of R (default 25) event-timed calls after 3
// warm-up calls; inputs rotate over copies that together exceed the L2 cache
// 4 times over (at least 2). Every result is checked on the host before it is
// timed (integers exactly, floats relative to the sum of magnitudes).
//
// Output: TSV rows
//   system<TAB>Algorithm<TAB>type<TAB>n<TAB>median_us<TAB>bytes_moved
// with system cub, gocccl, gocccl-warp or gocccl-block.
//
// Build (nvcc 11.8 + CUB 1.17 or nvcc 13 + CCCL 3):
//   nvcc -std=c++17 -O3 -arch=sm_90 -Ikernels/include bench/cub/segmented.cu -o segmented_bench
// Usage: segmented_bench [--runs R] [--max-log2 L]

#include <gocccl/adjacent_difference.cuh>
#include <gocccl/reduce_by_key.cuh>
#include <gocccl/segmented_reduce.cuh>
#include <gocccl/transform_reduce.cuh>

#include <cub/device/device_adjacent_difference.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/version.cuh>

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
#include <vector>

#define CHECK(x)                                                                                   \
  do                                                                                               \
  {                                                                                                \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess)                                                                         \
    {                                                                                              \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));    \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

struct Sum
{
  template <typename T>
  __host__ __device__ __forceinline__ T operator()(const T& a, const T& b) const
  {
    return a + b;
  }
};
struct Max
{
  template <typename T>
  __host__ __device__ __forceinline__ T operator()(const T& a, const T& b) const
  {
    return a > b ? a : b;
  }
};
struct Diff
{
  template <typename T>
  __host__ __device__ __forceinline__ T operator()(const T& a, const T& b) const
  {
    return a - b;
  }
};
struct SquareD
{
  __host__ __device__ __forceinline__ double operator()(float x) const { return double(x) * double(x); }
};
struct Low8
{
  __host__ __device__ __forceinline__ uint32_t operator()(uint32_t x) const { return x & 255u; }
};

constexpr int THREADS = 256;
// arch.MemBound: 256 threads, 64 (reductions) or 32 (transforms) bytes in
// flight per thread, 1 to 32 items.
__host__ __device__ constexpr int clamp_items(int v) { return v < 1 ? 1 : (v > 32 ? 32 : v); }
template <typename T> __host__ __device__ constexpr int items_for() { return clamp_items(64 / int(sizeof(T))); }
template <typename T> __host__ __device__ constexpr int items32_for() { return clamp_items(32 / int(sizeof(T))); }

// Entry points as gocccl-gen writes them.
template <typename T, typename Op>
__global__ void __launch_bounds__(THREADS) seg_warp(const T* in, long long n, const int64_t* b, const int64_t* e, long long s, T* out, T init)
{
  gocccl::segmented_reduce_warp<THREADS, items_for<T>(), T, Op>(in, n, b, e, s, out, init);
}
template <typename T, typename Op>
__global__ void __launch_bounds__(THREADS) seg_block(const T* in, long long n, const int64_t* b, const int64_t* e, long long s, T* out, T init)
{
  gocccl::segmented_reduce_block<THREADS, items_for<T>(), T, Op>(in, n, b, e, s, out, init);
}
template <typename T>
__global__ void __launch_bounds__(THREADS) adj_left(const T* in, T* out, long long n)
{
  gocccl::adjacent_difference_left<THREADS, items32_for<T>(), T, Diff>(in, out, n);
}
template <typename In, typename T, typename X, typename R>
__global__ void __launch_bounds__(THREADS) tr_partial(const In* in, long long n, T* partials)
{
  gocccl::transform_reduce_partial<THREADS, items_for<T>(), In, T, X, R>(in, n, partials);
}
template <typename In, typename T, typename X, typename R>
__global__ void __launch_bounds__(THREADS) tr_single(const In* in, long long n, T* out, T init)
{
  gocccl::transform_reduce_single<THREADS, items_for<T>(), In, T, X, R>(in, n, out, init);
}
template <typename In, typename T, typename X, typename R>
__global__ void __launch_bounds__(THREADS) tr_final(const T* in, long long n, T* out, T init)
{
  gocccl::transform_reduce_final<THREADS, items_for<T>(), In, T, X, R>(in, n, out, init);
}

struct EqKey
{
  __device__ __forceinline__ bool operator()(uint32_t a, uint32_t b) const { return a == b; }
};
template <typename V>
__global__ void __launch_bounds__(THREADS) rbk_init(void* st, long long bytes, long long tiles)
{
  gocccl::reduce_by_key_init<THREADS, items32_for<V>(), uint32_t, V, EqKey, Sum>(st, bytes, tiles);
}
template <typename V>
__global__ void __launch_bounds__(THREADS) rbk_sweep(const uint32_t* k, const V* v, uint32_t* u, V* a, int64_t* nr, long long n, void* st, long long bytes)
{
  gocccl::reduce_by_key<THREADS, items32_for<V>(), uint32_t, V, EqKey, Sum>(k, v, u, a, nr, n, st, bytes);
}

static int g_runs = 25;
static int g_sms = 0;
static size_t g_l2 = 0;

// median_us times fn(i) (i = call number, for rotating inputs).
static double median_us(const std::function<void(int)>& fn)
{
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i) fn(i);
  std::vector<float> ts;
  for (int i = 0; i < g_runs; ++i)
  {
    CHECK(cudaEventRecord(a));
    fn(i);
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    ts.push_back(ms * 1000.0f);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  std::sort(ts.begin(), ts.end());
  return ts[ts.size() / 2];
}

static void row(const char* sys, const char* alg, const char* type, long long n, double us, long long bytes)
{
  std::printf("%s\t%s\t%s\t%lld\t%.2f\t%lld\n", sys, alg, type, n, us, bytes);
  std::fflush(stdout);
}

template <typename T> static const char* type_name();
template <> const char* type_name<uint32_t>() { return "uint32"; }
template <> const char* type_name<float>() { return "float32"; }

template <typename T> static T gen(std::mt19937_64& r);
template <> uint32_t gen<uint32_t>(std::mt19937_64& r) { return uint32_t(r()); }
template <> float gen<float>(std::mt19937_64& r) { return float(std::uniform_real_distribution<double>(-1, 1)(r)); }

template <typename T> static bool close_enough(T want, T got, double mag);
template <> bool close_enough<uint32_t>(uint32_t w, uint32_t g, double) { return w == g; }
template <> bool close_enough<float>(float w, float g, double mag) { return std::fabs(double(w) - double(g)) <= 1e-5 * mag + 1e-6; }

static void* temp(size_t bytes)
{
  static void* p = nullptr;
  static size_t have = 0;
  if (bytes > have)
  {
    if (p) CHECK(cudaFree(p));
    CHECK(cudaMalloc(&p, bytes));
    have = bytes;
  }
  return p;
}

static void fail(const char* what, long long n, long long i)
{
  std::fprintf(stderr, "FAIL %s n=%lld at %lld\n", what, n, i);
  std::exit(1);
}

template <typename T, typename Op>
static void bench_type(int lg)
{
  const long long n = 1LL << lg;
  const char* tn = type_name<T>();
  const int copies = int(std::max<long long>(2, std::min<long long>(16, (4 * (long long)g_l2 + n * 4 - 1) / (n * (long long)sizeof(T)))));
  std::mt19937_64 rng(lg * 7919 + sizeof(T));
  std::vector<T> h(n);
  for (auto& x : h) x = gen<T>(rng);
  std::vector<T*> d(copies);
  for (auto& p : d)
  {
    CHECK(cudaMalloc(&p, n * sizeof(T)));
    CHECK(cudaMemcpy(p, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  }
  Op op;
  const T init = std::is_same<Op, Max>::value ? T(0) : T(0);

  // --- SegmentedReduce, 1024-item segments.
  {
    const long long segs = std::max(1LL, n / 1024);
    std::vector<int64_t> off(segs + 1);
    for (long long i = 0; i <= segs; ++i) off[i] = std::min(n, i * 1024);
    int64_t* d_off;
    T* d_out;
    CHECK(cudaMalloc(&d_off, (segs + 1) * sizeof(int64_t)));
    CHECK(cudaMalloc(&d_out, segs * sizeof(T)));
    CHECK(cudaMemcpy(d_off, off.data(), (segs + 1) * sizeof(int64_t), cudaMemcpyHostToDevice));
    std::vector<T> want(segs);
    std::vector<double> mag(segs);
    for (long long s = 0; s < segs; ++s)
    {
      T acc = init;
      double m = 0;
      for (long long i = off[s]; i < off[s + 1]; ++i) acc = op(acc, h[i]), m += std::fabs(double(h[i]));
      want[s] = acc, mag[s] = m;
    }
    auto verify = [&](const char* who) {
      std::vector<T> got(segs);
      CHECK(cudaMemcpy(got.data(), d_out, segs * sizeof(T), cudaMemcpyDeviceToHost));
      for (long long s = 0; s < segs; ++s)
        if (!close_enough(want[s], got[s], mag[s])) fail(who, n, s);
      CHECK(cudaMemset(d_out, 0xAB, segs * sizeof(T)));
    };
    const long long bytes = n * sizeof(T) + 2 * segs * sizeof(int64_t) + segs * sizeof(T);
    const std::string alg = std::string("SegmentedReduce(") + (std::is_same<Op, Max>::value ? "max" : "sum") + ")";

    size_t tb = 0;
    CHECK(cub::DeviceSegmentedReduce::Reduce(nullptr, tb, d[0], d_out, int(segs), d_off, d_off + 1, op, init));
    void* tp = temp(std::max<size_t>(tb, 1));
    auto cubf = [&](int i) { CHECK(cub::DeviceSegmentedReduce::Reduce(tp, tb, d[i % copies], d_out, int(segs), d_off, d_off + 1, op, init)); };
    cubf(0);
    verify("cub SegmentedReduce");
    row("cub", alg.c_str(), tn, n, median_us(cubf), bytes);

    // The Go runtime's dispatch (runtime/segmented_reduce.go).
    int occ;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, seg_warp<T, Op>, THREADS, 0));
    const long long tile = THREADS * items_for<T>(), warps = THREADS / 32, resident = std::max(1, occ * g_sms) * warps;
    const long long avg = n / segs;
    const bool use_warp = avg <= 512 || (avg <= 4 * tile && segs >= resident);
    auto warpf = [&](int i) { seg_warp<T, Op><<<unsigned((segs + warps - 1) / warps), THREADS>>>(d[i % copies], n, d_off, d_off + 1, segs, d_out, init); };
    auto blockf = [&](int i) { seg_block<T, Op><<<unsigned(segs), THREADS>>>(d[i % copies], n, d_off, d_off + 1, segs, d_out, init); };
    warpf(0);
    verify("gocccl segmented_reduce_warp");
    blockf(0);
    verify("gocccl segmented_reduce_block");
    const double tw = median_us(warpf), tbk = median_us(blockf);
    row("gocccl", alg.c_str(), tn, n, use_warp ? tw : tbk, bytes);
    row("gocccl-warp", alg.c_str(), tn, n, tw, bytes);
    row("gocccl-block", alg.c_str(), tn, n, tbk, bytes);
    CHECK(cudaFree(d_off));
    CHECK(cudaFree(d_out));
  }

  // --- ReduceByKey, uint32 keys in runs of 7, sum of values.
  {
    const long long runs = (n + 6) / 7;
    std::vector<uint32_t> keys(n);
    for (long long i = 0; i < n; ++i) keys[i] = uint32_t(i / 7);
    uint32_t *d_keys, *d_unique;
    T* d_agg;
    long long* d_num;
    CHECK(cudaMalloc(&d_keys, n * sizeof(uint32_t)));
    CHECK(cudaMalloc(&d_unique, n * sizeof(uint32_t)));
    CHECK(cudaMalloc(&d_agg, n * sizeof(T)));
    CHECK(cudaMalloc(&d_num, sizeof(long long)));
    CHECK(cudaMemcpy(d_keys, keys.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    size_t tb = 0;
    CHECK(cub::DeviceReduce::ReduceByKey(nullptr, tb, d_keys, d_unique, d[0], d_agg, d_num, Sum(), int(n)));
    void* tp = temp(std::max<size_t>(tb, 1));
    auto cubf = [&](int i) { CHECK(cub::DeviceReduce::ReduceByKey(tp, tb, d_keys, d_unique, d[i % copies], d_agg, d_num, Sum(), int(n))); };
    cubf(0);
    long long got_runs = 0;
    CHECK(cudaMemcpy(&got_runs, d_num, sizeof(long long), cudaMemcpyDeviceToHost));
    if (got_runs != runs) fail("cub ReduceByKey runs", n, got_runs);
    std::vector<T> agg(runs);
    CHECK(cudaMemcpy(agg.data(), d_agg, runs * sizeof(T), cudaMemcpyDeviceToHost));
    for (long long r = 0; r < runs; ++r)
    {
      T acc = h[r * 7];
      double m = std::fabs(double(h[r * 7]));
      for (long long i = r * 7 + 1; i < std::min(n, r * 7 + 7); ++i) acc = acc + h[i], m += std::fabs(double(h[i]));
      if (!close_enough(acc, agg[r], m)) fail("cub ReduceByKey", n, r);
    }
    const long long bytes = n * (sizeof(uint32_t) + sizeof(T)) + runs * (sizeof(uint32_t) + sizeof(T));
    row("cub", "ReduceByKey(sum)", tn, n, median_us(cubf), bytes);

    // Ours, dispatched as runtime/reduce_by_key.go does.
    const long long tile = THREADS * items32_for<T>(), tiles = (n + tile - 1) / tile;
    const long long pair = std::max<long long>(16, 8 + (sizeof(T) + 7) / 8 * 8);
    const long long st_bytes = 3 * ((tiles + 32) * pair + 256) + 512;
    void* d_st;
    CHECK(cudaMalloc(&d_st, st_bytes));
    auto ours = [&](int i) {
      rbk_init<T><<<unsigned((tiles + 32 + THREADS - 1) / THREADS), THREADS>>>(d_st, st_bytes, tiles);
      rbk_sweep<T><<<unsigned(tiles), THREADS>>>(d_keys, d[i % copies], d_unique, d_agg, (int64_t*)d_num, n, d_st, st_bytes);
    };
    CHECK(cudaMemset(d_agg, 0xAB, n * sizeof(T)));
    CHECK(cudaMemset(d_num, 0xAB, sizeof(long long)));
    ours(0);
    got_runs = 0;
    CHECK(cudaMemcpy(&got_runs, d_num, sizeof(long long), cudaMemcpyDeviceToHost));
    if (got_runs != runs) fail("gocccl reduce_by_key runs", n, got_runs);
    CHECK(cudaMemcpy(agg.data(), d_agg, runs * sizeof(T), cudaMemcpyDeviceToHost));
    std::vector<uint32_t> uk(runs);
    CHECK(cudaMemcpy(uk.data(), d_unique, runs * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    for (long long r = 0; r < runs; ++r)
    {
      T acc = h[r * 7];
      double m = std::fabs(double(h[r * 7]));
      for (long long i = r * 7 + 1; i < std::min(n, r * 7 + 7); ++i) acc = acc + h[i], m += std::fabs(double(h[i]));
      if (!close_enough(acc, agg[r], m) || uk[r] != uint32_t(r)) fail("gocccl reduce_by_key", n, r);
    }
    row("gocccl", "ReduceByKey(sum)", tn, n, median_us(ours), bytes);
    CHECK(cudaFree(d_st));
    CHECK(cudaFree(d_keys));
    CHECK(cudaFree(d_unique));
    CHECK(cudaFree(d_agg));
    CHECK(cudaFree(d_num));
  }

  // --- AdjacentDifference (SubtractLeftCopy, a - b).
  {
    T* d_out;
    CHECK(cudaMalloc(&d_out, n * sizeof(T)));
    auto verify = [&](const char* who) {
      std::vector<T> got(n);
      CHECK(cudaMemcpy(got.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
      for (long long i = 0; i < n; ++i)
      {
        const T w = i == 0 ? h[0] : T(h[i] - h[i - 1]);
        if (std::memcmp(&w, &got[i], sizeof(T)) != 0) fail(who, n, i);
      }
      CHECK(cudaMemset(d_out, 0xAB, n * sizeof(T)));
    };
    size_t tb = 0;
    CHECK(cub::DeviceAdjacentDifference::SubtractLeftCopy(nullptr, tb, d[0], d_out, n, Diff()));
    void* tp = temp(std::max<size_t>(tb, 1));
    auto cubf = [&](int i) { CHECK(cub::DeviceAdjacentDifference::SubtractLeftCopy(tp, tb, d[i % copies], d_out, n, Diff())); };
    cubf(0);
    verify("cub SubtractLeftCopy");
    row("cub", "AdjacentDifference", tn, n, median_us(cubf), 2 * n * (long long)sizeof(T));
    const long long tile = THREADS * items32_for<T>();
    auto ours = [&](int i) { adj_left<T><<<unsigned((n + tile - 1) / tile), THREADS>>>(d[i % copies], d_out, n); };
    ours(0);
    verify("gocccl adjacent_difference_left");
    row("gocccl", "AdjacentDifference", tn, n, median_us(ours), 2 * n * (long long)sizeof(T));
    CHECK(cudaFree(d_out));
  }

  // --- TransformReduce: float32 -> sum of squares in double; uint32 -> sum of x & 255.
  {
    using X = typename std::conditional<std::is_same<T, float>::value, SquareD, Low8>::type;
    using R = typename std::conditional<std::is_same<T, float>::value, double, uint32_t>::type;
    X xf;
    R want = 0;
    double mag = 0;
    for (long long i = 0; i < n; ++i) want = want + xf(h[i]), mag += std::fabs(double(xf(h[i])));
    R* d_out;
    CHECK(cudaMalloc(&d_out, sizeof(R)));
    auto verify = [&](const char* who) {
      R got;
      CHECK(cudaMemcpy(&got, d_out, sizeof(R), cudaMemcpyDeviceToHost));
      const bool ok = std::is_integral<R>::value ? got == want : std::fabs(double(got) - double(want)) <= 1e-9 * mag;
      if (!ok) fail(who, n, 0);
      CHECK(cudaMemset(d_out, 0xAB, sizeof(R)));
    };
    const long long bytes = n * sizeof(T);
#if CUB_VERSION >= 200800 && !defined(GOCCCL_NO_CUB_TRANSFORM_REDUCE)
    {
      size_t tb = 0;
      CHECK(cub::DeviceReduce::TransformReduce(nullptr, tb, d[0], d_out, n, Sum(), xf, R(0)));
      void* tp = temp(std::max<size_t>(tb, 1));
      auto cubf = [&](int i) { CHECK(cub::DeviceReduce::TransformReduce(tp, tb, d[i % copies], d_out, n, Sum(), xf, R(0))); };
      cubf(0);
      verify("cub TransformReduce");
      row("cub", "TransformReduce", tn, n, median_us(cubf), bytes);
    }
#endif
    const long long tile = THREADS * items_for<R>();
    int occ;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, tr_partial<T, R, X, Sum>, THREADS, 0));
    const long long grid = std::min((n + tile - 1) / tile, (long long)std::max(1, occ * g_sms * 5));
    R* d_part;
    CHECK(cudaMalloc(&d_part, grid * sizeof(R)));
    auto ours = [&](int i) {
      if (n <= tile)
      {
        tr_single<T, R, X, Sum><<<1, THREADS>>>(d[i % copies], n, d_out, R(0));
        return;
      }
      tr_partial<T, R, X, Sum><<<unsigned(grid), THREADS>>>(d[i % copies], n, d_part);
      tr_final<T, R, X, Sum><<<1, THREADS>>>(d_part, grid, d_out, R(0));
    };
    ours(0);
    verify("gocccl transform_reduce");
    row("gocccl", "TransformReduce", tn, n, median_us(ours), bytes);
    CHECK(cudaFree(d_part));
    CHECK(cudaFree(d_out));
  }

  for (auto p : d) CHECK(cudaFree(p));
}

int main(int argc, char** argv)
{
  int max_log2 = 28;
  for (int i = 1; i + 1 < argc; i += 2)
  {
    if (!std::strcmp(argv[i], "--runs")) g_runs = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--max-log2")) max_log2 = std::atoi(argv[i + 1]);
  }
  int dev;
  CHECK(cudaGetDevice(&dev));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, dev));
  g_sms = prop.multiProcessorCount;
  g_l2 = prop.l2CacheSize;
  std::fprintf(stderr, "# %s, %d SMs, L2 %zu MiB, CUB_VERSION %d, runs %d\n", prop.name, g_sms, g_l2 >> 20, CUB_VERSION, g_runs);
  std::printf("system\talgorithm\ttype\tn\tmedian_us\tbytes_moved\n");
  for (int lg : {10, 16, 20, 24, 28})
  {
    if (lg > max_log2) continue;
    bench_type<uint32_t, Max>(lg);
    bench_type<float, Sum>(lg);
  }
  return 0;
}
