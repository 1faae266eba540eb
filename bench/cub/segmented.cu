// segmented.cu: segmented and fused reductions, reduce-by-key and adjacent
// difference side by side on the same inputs, one TSV row each (bench.cuh's
// format), for uint32 and float32:
//
//   segmented_reduce     cub::DeviceSegmentedReduce::Reduce (max for uint32,
//                        sum for float32) over 1024-item segments (int64
//                        offsets k * 1024, begin = off, end = off + 1);
//                        gocccl-kernels: segmented_reduce_warp or _block, as
//                        runtime.SegmentedReduce chooses
//   segmented_reduce_4, _16, _128  the same (uint32 max) over segments of 4,
//                        16 and 128 items; gocccl-kernels: segmented_reduce_
//                        thread, _thread and _subwarp, as RunWith chooses
//                        given MaxSegmentSize = the segment size
//   reduce_by_key        cub::DeviceReduce::ReduceByKey, uint32 keys in runs
//                        of 7, sum of values (cub: a functor of ours, which
//                        CUB runs at its DefaultPolicy; cub-plus:
//                        cuda::std::plus<>, its sm_90 tuning); gocccl-kernels:
//                        reduce_by_key over epoch tile states
//                        (reduce_by_key_init once, then one launch a call)
//   adjacent_difference  cub::DeviceAdjacentDifference::SubtractLeftCopy,
//                        a - b; gocccl-kernels: adjacent_difference_left
//   transform_reduce     cub::DeviceReduce::TransformReduce (CCCL >= 2.8;
//                        skipped before, or with -DGOCCCL_NO_CUB_TRANSFORM_REDUCE):
//                        float32: sum of squares into float64, uint32: sum of
//                        x & 255; gocccl-kernels: transform_reduce_single_pass
//                        on one wave of blocks (or _single when n <= tile)
//
// and for uint64 and float64 values: reduce_by_key (CUB's rows alone; gocccl's
// come from the Go API, bench/gpubench/segmented.go) and adjacent_difference
// (CUB's and gocccl-kernels).
//
// gocccl-kernels rows are the templates behind kernels dispatched as the Go
// runtime does. Outputs are poisoned and every result is checked on the host
// before it is timed (integers exactly, floats relative to the sum of
// magnitudes).
//
// Usage: segmented [--runs R] [--sizes 10,16,20,24,28] [--seed S]

#include "bench.cuh"

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
// arch.MemBound: 256 threads, 64 (reductions), 32 (transforms) or 16
// (adjacent difference) bytes in flight per thread, 1 to 32 items.
__host__ __device__ constexpr int clamp_items(int v) { return v < 1 ? 1 : (v > 32 ? 32 : v); }
template <typename T> __host__ __device__ constexpr int items_for() { return clamp_items(64 / int(sizeof(T))); }
template <typename T> __host__ __device__ constexpr int items32_for() { return clamp_items(32 / int(sizeof(T))); }
template <typename T> __host__ __device__ constexpr int items16_for() { return clamp_items(16 / int(sizeof(T))); }

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
template <typename T, typename Op>
__global__ void __launch_bounds__(THREADS) seg_thread(const T* in, long long n, const int64_t* b, const int64_t* e, long long s, T* out, T init)
{
  gocccl::segmented_reduce_thread<THREADS, items_for<T>(), T, Op>(in, n, b, e, s, out, init);
}
template <typename T, typename Op>
__global__ void __launch_bounds__(THREADS) seg_subwarp(const T* in, long long n, const int64_t* b, const int64_t* e, long long s, T* out, T init)
{
  gocccl::segmented_reduce_subwarp<THREADS, items_for<T>(), T, Op>(in, n, b, e, s, out, init);
}
template <typename T>
__global__ void __launch_bounds__(THREADS) adj_left(const T* in, T* out, long long n)
{
  gocccl::adjacent_difference_left<THREADS, items16_for<T>(), T, Diff>(in, out, n);
}
template <typename In, typename T, typename X, typename R>
__global__ void __launch_bounds__(THREADS) tr_sweep(const In* in, long long n, T* out, T init, void* scratch)
{
  gocccl::transform_reduce_single_pass<THREADS, items_for<T>(), In, T, X, R>(in, n, out, init, scratch);
}
template <typename In, typename T, typename X, typename R>
__global__ void __launch_bounds__(THREADS) tr_single(const In* in, long long n, T* out, T init)
{
  gocccl::transform_reduce_single<THREADS, items_for<T>(), In, T, X, R>(in, n, out, init);
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
__global__ void __launch_bounds__(THREADS) rbk_sweep(const uint32_t* k, const V* v, uint32_t* u, V* a, int64_t* nr, long long n, void* st, long long bytes,
                                                     unsigned epoch)
{
  gocccl::reduce_by_key<THREADS, items32_for<V>(), uint32_t, V, EqKey, Sum>(k, v, u, a, nr, n, st, bytes, epoch);
}

template <typename T> static bool close_enough(T want, T got, double mag);
template <> bool close_enough<uint32_t>(uint32_t w, uint32_t g, double) { return w == g; }
template <> bool close_enough<uint64_t>(uint64_t w, uint64_t g, double) { return w == g; }
template <> bool close_enough<float>(float w, float g, double mag) { return std::fabs(double(w) - double(g)) <= 1e-5 * mag + 1e-6; }
template <> bool close_enough<double>(double w, double g, double mag) { return std::fabs(w - g) <= 1e-5 * mag + 1e-6; }

static void* temp(size_t bytes)
{
  static void* p = nullptr;
  static size_t have = 0;
  if (bytes > have)
  {
    if (p) BENCH_CK(cudaFree(p));
    BENCH_CK(cudaMalloc(&p, bytes));
    have = bytes;
  }
  return p;
}

// Bad is thrown by a failed check; the case prints it with bench::fail.
struct Bad
{
  std::string what;
};
static void fail(const char* what, long long, long long i)
{
  throw Bad{std::string(what) + " differs at " + std::to_string(i)};
}

// measure runs fn(0), calls verify (which throws Bad), and prints the row.
template <typename F, typename V>
static void measure(const char* system, const char* alg, const char* type, long long n, long long bytes, F&& fn,
                    V&& verify, const std::string& note = "")
{
  try
  {
    fn(0);
    BENCH_CK(cudaGetLastError());
    BENCH_CK(cudaDeviceSynchronize());
    verify();
  }
  catch (const Bad& b)
  {
    bench::fail(system, alg, type, n, bytes, b.what);
    return;
  }
  bench::row(system, alg, type, n, bench::time_us(fn), bytes, note);
}

// bench_reduce_by_key times ReduceByKey over h (uint32 keys in runs of 7, sum
// of values): CUB's, and ours when ours_too.
template <typename T>
static void bench_reduce_by_key(long long n, const std::vector<T>& h, const bench::Rotation<T>& rot, bool ours_too)
{
  const char* tn = bench::type_name<T>();
  const long long runs = (n + 6) / 7;
  std::vector<uint32_t> keys(n);
  for (long long i = 0; i < n; ++i) keys[i] = uint32_t(i / 7);
  bench::Rotation<uint32_t> krot(keys);
  uint32_t* d_unique;
  T* d_agg;
  long long* d_num;
  BENCH_CK(cudaMalloc(&d_unique, n * sizeof(uint32_t)));
  BENCH_CK(cudaMalloc(&d_agg, n * sizeof(T)));
  BENCH_CK(cudaMalloc(&d_num, sizeof(long long)));
  auto poison = [&] {
    BENCH_CK(cudaMemset(d_unique, 0xAB, n * sizeof(uint32_t)));
    BENCH_CK(cudaMemset(d_agg, 0xAB, n * sizeof(T)));
    BENCH_CK(cudaMemset(d_num, 0xAB, sizeof(long long)));
  };
  auto verify = [&](const char* who) {
    long long got_runs = 0;
    BENCH_CK(cudaMemcpy(&got_runs, d_num, sizeof(long long), cudaMemcpyDeviceToHost));
    if (got_runs != runs) throw Bad{std::string(who) + ": " + std::to_string(got_runs) + " runs, want " + std::to_string(runs)};
    std::vector<T> agg(runs);
    BENCH_CK(cudaMemcpy(agg.data(), d_agg, runs * sizeof(T), cudaMemcpyDeviceToHost));
    std::vector<uint32_t> uk(runs);
    BENCH_CK(cudaMemcpy(uk.data(), d_unique, runs * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    for (long long r = 0; r < runs; ++r)
    {
      T acc = h[r * 7];
      double m = std::fabs(double(h[r * 7]));
      for (long long i = r * 7 + 1; i < std::min(n, r * 7 + 7); ++i) acc = acc + h[i], m += std::fabs(double(h[i]));
      if (!close_enough(acc, agg[r], m) || uk[r] != uint32_t(r)) fail(who, n, r);
    }
  };
  const long long bytes = n * (sizeof(uint32_t) + sizeof(T)) + runs * (sizeof(uint32_t) + sizeof(T)) + 8;
  const char* note = "uint32 keys in runs of 7, sum";
  size_t tb = 0;
  BENCH_CK(cub::DeviceReduce::ReduceByKey(nullptr, tb, krot.get(0), d_unique, rot.get(0), d_agg, d_num, Sum(), int(n)));
  void* tp = temp(std::max<size_t>(tb, 1));
  auto cubf = [&](int i) { BENCH_CK(cub::DeviceReduce::ReduceByKey(tp, tb, krot.get(i), d_unique, rot.get(i), d_agg, d_num, Sum(), int(n))); };
  poison();
  measure("cub", "reduce_by_key", tn, n, bytes, cubf, [&] { verify("cub ReduceByKey"); }, note);
#if CUB_VERSION >= 200000
  // cub-plus: the same with cuda::std::plus<>, for which CUB 3 runs its
  // sm_90 tuning; for any other operator (Sum above, every Go operator) it
  // runs DefaultPolicy, 128 x 6 (tuning_reduce_by_key.cuh's is_primitive_op).
  {
    size_t pb = 0;
    BENCH_CK(cub::DeviceReduce::ReduceByKey(nullptr, pb, krot.get(0), d_unique, rot.get(0), d_agg, d_num,
                                            ::cuda::std::plus<>{}, int(n)));
    void* pp = temp(std::max<size_t>(pb, 1));
    auto plusf = [&](int i) {
      BENCH_CK(cub::DeviceReduce::ReduceByKey(pp, pb, krot.get(i), d_unique, rot.get(i), d_agg, d_num,
                                              ::cuda::std::plus<>{}, int(n)));
    };
    poison();
    measure("cub-plus", "reduce_by_key", tn, n, bytes, plusf, [&] { verify("cub ReduceByKey (plus)"); },
            "uint32 keys in runs of 7, cuda::std::plus<> (CUB's sm_90 tuning)");
  }
#endif

  // Ours, dispatched as runtime/reduce_by_key.go does: epoch tile states
  // (RunPair<T> is 16 bytes), the region's init by the first call, then one
  // launch a call with the next epoch; the sweep alone for a single tile.
  if (ours_too)
  {
    static_assert(gocccl::detail::run_epoch_states<T>, "bench_reduce_by_key: epoch tile states");
    const long long tile = THREADS * items32_for<T>(), tiles = std::max((n + tile - 1) / tile, 1LL);
    const long long st_bytes = static_cast<long long>(gocccl::detail::RunTileState<T>::AllocationSize(tiles));
    void* d_st;
    BENCH_CK(cudaMalloc(&d_st, st_bytes));
    unsigned epoch = 0;
    auto ours = [&](int i) {
      if (tiles > 1 && epoch == 0)
        rbk_init<T><<<unsigned(std::min((st_bytes / 8 + THREADS - 1) / THREADS, 4096LL)), THREADS>>>(d_st, st_bytes, tiles);
      rbk_sweep<T><<<unsigned(tiles), THREADS>>>(krot.get(i), rot.get(i), d_unique, d_agg, (int64_t*)d_num, n,
                                                tiles > 1 ? d_st : nullptr, st_bytes, tiles > 1 ? ++epoch : 0);
    };
    poison();
    measure("gocccl-kernels", "reduce_by_key", tn, n, bytes, ours, [&] { verify("gocccl reduce_by_key"); },
            std::string(note) + "; gocccl templates, Go runtime's dispatch in C++");
    BENCH_CK(cudaFree(d_st));
  }
  BENCH_CK(cudaFree(d_unique));
  BENCH_CK(cudaFree(d_agg));
  BENCH_CK(cudaFree(d_num));
}

// bench_adjacent_difference times SubtractLeftCopy (a - b) over h: CUB's and ours.
template <typename T>
static void bench_adjacent_difference(long long n, const std::vector<T>& h, const bench::Rotation<T>& rot)
{
  const char* tn = bench::type_name<T>();
  T* d_out;
  BENCH_CK(cudaMalloc(&d_out, n * sizeof(T)));
  auto verify = [&](const char* who) {
    std::vector<T> got(n);
    BENCH_CK(cudaMemcpy(got.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
    for (long long i = 0; i < n; ++i)
    {
      const T w = i == 0 ? h[0] : T(h[i] - h[i - 1]);
      if (std::memcmp(&w, &got[i], sizeof(T)) != 0) fail(who, n, i);
    }
    BENCH_CK(cudaMemset(d_out, 0xAB, n * sizeof(T)));
  };
  size_t tb = 0;
  BENCH_CK(cub::DeviceAdjacentDifference::SubtractLeftCopy(nullptr, tb, rot.get(0), d_out, n, Diff()));
  void* tp = temp(std::max<size_t>(tb, 1));
  auto cubf = [&](int i) { BENCH_CK(cub::DeviceAdjacentDifference::SubtractLeftCopy(tp, tb, rot.get(i), d_out, n, Diff())); };
  BENCH_CK(cudaMemset(d_out, 0xAB, n * sizeof(T)));
  measure("cub", "adjacent_difference", tn, n, 2 * n * (long long)sizeof(T), cubf,
          [&] { verify("cub SubtractLeftCopy"); }, "SubtractLeftCopy, a - b");
  const long long tile = THREADS * items16_for<T>();
  auto ours = [&](int i) { adj_left<T><<<unsigned((n + tile - 1) / tile), THREADS>>>(rot.get(i), d_out, n); };
  measure("gocccl-kernels", "adjacent_difference", tn, n, 2 * n * (long long)sizeof(T), ours,
          [&] { verify("gocccl adjacent_difference_left"); }, "a - b; gocccl templates, Go runtime's dispatch in C++");
  BENCH_CK(cudaFree(d_out));
}

// bench_segmented_reduce times cub::DeviceSegmentedReduce::Reduce over
// segments of seg items (int64 offsets k * seg, begin = off, end = off + 1)
// beside ours, dispatched as the Go runtime does given MaxSegmentSize = seg
// (runtime.segmentedDispatchMax): a thread per segment up to items per
// thread, 8 lanes up to 8 times that, a warp up to 32 times that, else Run's
// choice from the average length (so 1024-item segments of 4-byte items are
// dispatched as without a hint). Rows of segmented_reduce for 1024 items,
// segmented_reduce_<seg> for the others.
template <typename T, typename Op>
static void bench_segmented_reduce(long long n, const std::vector<T>& h, const bench::Rotation<T>& rot, long long seg)
{
  const char* tn = bench::type_name<T>();
  Op op;
  const T init = T(0);
  const std::string alg = seg == 1024 ? std::string("segmented_reduce") : "segmented_reduce_" + std::to_string(seg);
  const long long segs = std::max(1LL, (n + seg - 1) / seg);
  std::vector<int64_t> off(segs + 1);
  for (long long i = 0; i <= segs; ++i) off[i] = std::min(n, i * seg);
  int64_t* d_off;
  T* d_out;
  BENCH_CK(cudaMalloc(&d_off, (segs + 1) * sizeof(int64_t)));
  BENCH_CK(cudaMalloc(&d_out, segs * sizeof(T)));
  BENCH_CK(cudaMemcpy(d_off, off.data(), (segs + 1) * sizeof(int64_t), cudaMemcpyHostToDevice));
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
    BENCH_CK(cudaMemcpy(got.data(), d_out, segs * sizeof(T), cudaMemcpyDeviceToHost));
    for (long long s = 0; s < segs; ++s)
      if (!close_enough(want[s], got[s], mag[s])) fail(who, n, s);
    BENCH_CK(cudaMemset(d_out, 0xAB, segs * sizeof(T)));
  };
  const long long bytes = n * sizeof(T) + 2 * segs * sizeof(int64_t) + segs * sizeof(T);
  const std::string note = std::string(std::is_same<Op, Max>::value ? "max" : "sum") + " over " + std::to_string(seg) + "-item segments";

  size_t tb = 0;
  BENCH_CK(cub::DeviceSegmentedReduce::Reduce(nullptr, tb, rot.get(0), d_out, int(segs), d_off, d_off + 1, op, init));
  void* tp = temp(std::max<size_t>(tb, 1));
  auto cubf = [&](int i) { BENCH_CK(cub::DeviceSegmentedReduce::Reduce(tp, tb, rot.get(i), d_out, int(segs), d_off, d_off + 1, op, init)); };
  BENCH_CK(cudaMemset(d_out, 0xAB, segs * sizeof(T)));
  measure("cub", alg.c_str(), tn, n, bytes, cubf, [&] { verify("cub SegmentedReduce"); }, note);

  // The Go runtime's dispatch (runtime/segmented_reduce.go).
  int occ;
  BENCH_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, seg_warp<T, Op>, THREADS, 0));
  const long long items = items_for<T>(), tile = THREADS * items, warps = THREADS / 32,
                  resident = std::max(1, occ * bench::state().sms) * warps;
  const long long avg = n / segs;
  const bool use_warp = avg <= 512 || (avg <= 4 * tile && segs >= resident);
  const long long groups = THREADS / gocccl::SUBWARP_THREADS;
  auto warpf = [&](int i) { seg_warp<T, Op><<<unsigned((segs + warps - 1) / warps), THREADS>>>(rot.get(i), n, d_off, d_off + 1, segs, d_out, init); };
  auto blockf = [&](int i) { seg_block<T, Op><<<unsigned(segs), THREADS>>>(rot.get(i), n, d_off, d_off + 1, segs, d_out, init); };
  auto threadf = [&](int i) { seg_thread<T, Op><<<unsigned((segs + THREADS - 1) / THREADS), THREADS>>>(rot.get(i), n, d_off, d_off + 1, segs, d_out, init); };
  auto subwarpf = [&](int i) { seg_subwarp<T, Op><<<unsigned((segs + groups - 1) / groups), THREADS>>>(rot.get(i), n, d_off, d_off + 1, segs, d_out, init); };
  BENCH_CK(cudaMemset(d_out, 0xAB, segs * sizeof(T)));
  const std::string hint = seg == 1024 ? "" : ", given MaxSegmentSize";
  if (seg <= items)
    measure("gocccl-kernels", alg.c_str(), tn, n, bytes, threadf,
            [&] { verify("gocccl segmented_reduce_thread"); }, note + "; segmented_reduce_thread, as the Go runtime chooses" + hint);
  else if (seg <= gocccl::SUBWARP_THREADS * items)
    measure("gocccl-kernels", alg.c_str(), tn, n, bytes, subwarpf,
            [&] { verify("gocccl segmented_reduce_subwarp"); }, note + "; segmented_reduce_subwarp, as the Go runtime chooses" + hint);
  else if (seg <= 32 * items || use_warp)
    measure("gocccl-kernels", alg.c_str(), tn, n, bytes, warpf,
            [&] { verify("gocccl segmented_reduce_warp"); }, note + "; segmented_reduce_warp, as the Go runtime chooses" + hint);
  else
    measure("gocccl-kernels", alg.c_str(), tn, n, bytes, blockf,
            [&] { verify("gocccl segmented_reduce_block"); }, note + "; segmented_reduce_block, as the Go runtime chooses" + hint);
  BENCH_CK(cudaFree(d_off));
  BENCH_CK(cudaFree(d_out));
}

template <typename T, typename Op>
static void bench_type(long long n, uint64_t salt)
{
  const char* tn = bench::type_name<T>();
  const std::vector<T> h = bench::random_items<T>(n, salt);
  bench::Rotation<T> rot(h);
  Op op;
  const T init = std::is_same<Op, Max>::value ? T(0) : T(0);

  // --- SegmentedReduce, 1024-item segments, and for uint32 the segments of
  // the MaxSegmentSize hint's kernels (4: thread, 16: thread, 128: sub-warp).
  bench_segmented_reduce<T, Op>(n, h, rot, 1024);
  if (std::is_same<T, uint32_t>::value)
    for (long long seg : {4LL, 16LL, 128LL}) bench_segmented_reduce<T, Op>(n, h, rot, seg);

  bench_reduce_by_key(n, h, rot, true);
  bench_adjacent_difference(n, h, rot);

  // --- TransformReduce: float32 -> sum of squares in double; uint32 -> sum of x & 255.
  {
    using X = typename std::conditional<std::is_same<T, float>::value, SquareD, Low8>::type;
    using R = typename std::conditional<std::is_same<T, float>::value, double, uint32_t>::type;
    X xf;
    R want = 0;
    double mag = 0;
    for (long long i = 0; i < n; ++i) want = want + xf(h[i]), mag += std::fabs(double(xf(h[i])));
    R* d_out;
    BENCH_CK(cudaMalloc(&d_out, sizeof(R)));
    auto verify = [&](const char* who) {
      R got;
      BENCH_CK(cudaMemcpy(&got, d_out, sizeof(R), cudaMemcpyDeviceToHost));
      const bool ok = std::is_integral<R>::value ? got == want : std::fabs(double(got) - double(want)) <= 1e-9 * mag;
      if (!ok) fail(who, n, 0);
      BENCH_CK(cudaMemset(d_out, 0xAB, sizeof(R)));
    };
    const long long bytes = n * sizeof(T) + sizeof(R);
    const char* note = std::is_same<T, float>::value ? "sum of squares into float64" : "sum of x & 255";
    BENCH_CK(cudaMemset(d_out, 0xAB, sizeof(R)));
#if CUB_VERSION >= 200800 && !defined(GOCCCL_NO_CUB_TRANSFORM_REDUCE)
    {
      size_t tb = 0;
      BENCH_CK(cub::DeviceReduce::TransformReduce(nullptr, tb, rot.get(0), d_out, n, Sum(), xf, R(0)));
      void* tp = temp(std::max<size_t>(tb, 1));
      auto cubf = [&](int i) { BENCH_CK(cub::DeviceReduce::TransformReduce(tp, tb, rot.get(i), d_out, n, Sum(), xf, R(0))); };
      measure("cub", "transform_reduce", tn, n, bytes, cubf, [&] { verify("cub TransformReduce"); }, note);
    }
#else
    bench::skip("cub", "transform_reduce", tn, n, bytes, "cub::DeviceReduce::TransformReduce needs CCCL 2.8");
#endif
    const long long tile = THREADS * items_for<R>();
    int occ;
    BENCH_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, tr_sweep<T, R, X, Sum>, THREADS, 0));
    // One wave, as runtime.TransformReduce launches; the scratch is a zeroed
    // counter and then the partials (gocccl::ReduceScratch<R>).
    const long long grid = std::min((n + tile - 1) / tile, (long long)std::max(1, occ * bench::state().sms));
    void* d_scratch;
    BENCH_CK(cudaMalloc(&d_scratch, gocccl::ReduceScratch<R>::PARTIALS_OFFSET + grid * sizeof(R)));
    BENCH_CK(cudaMemset(d_scratch, 0, gocccl::ReduceScratch<R>::PARTIALS_OFFSET));
    auto ours = [&](int i) {
      if (n <= tile)
      {
        tr_single<T, R, X, Sum><<<1, THREADS>>>(rot.get(i), n, d_out, R(0));
        return;
      }
      tr_sweep<T, R, X, Sum><<<unsigned(grid), THREADS>>>(rot.get(i), n, d_out, R(0), d_scratch);
    };
    measure("gocccl-kernels", "transform_reduce", tn, n, bytes, ours, [&] { verify("gocccl transform_reduce"); },
            std::string(note) + "; gocccl templates, Go runtime's dispatch in C++");
    BENCH_CK(cudaFree(d_scratch));
    BENCH_CK(cudaFree(d_out));
  }

}

// bench_wide times reduce_by_key (CUB's alone: the C++ dispatch of ours
// keeps the 4-byte policy) and adjacent_difference over 8-byte values.
template <typename T>
static void bench_wide(long long n, uint64_t salt)
{
  const std::vector<T> h = bench::random_items<T>(n, salt);
  bench::Rotation<T> rot(h);
  bench_reduce_by_key(n, h, rot, false);
  bench_adjacent_difference(n, h, rot);
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "segmented");
  std::printf("# CUB_VERSION %d\n", CUB_VERSION);
  for (long long n : bench::sizes())
  {
    bench_type<uint32_t, Max>(n, 1);
    bench_type<float, Sum>(n, 2);
    bench_wide<uint64_t>(n, 3);
    bench_wide<double>(n, 4);
  }
  return bench::finish();
}
