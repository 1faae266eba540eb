// reduce.cu: sums side by side on the same inputs, one TSV row each
// (bench.cuh's format):
//
//   cuda            copy    cudaMemcpyAsync device to device (the ceiling)
//   cub             reduce  cub::DeviceReduce::Sum, temp storage allocated beforehand
//   gocccl-kernels  reduce  gocccl's reduce_single_pass/_final templates behind
//                           extern "C" kernels, dispatched as the Go runtime does
//
// for int32, uint32, float32, uint64 and float64. Integer sums wrap and are
// checked exactly; floating-point sums are checked against a double (or long
// double) sum relative to the sum of magnitudes.
//
// Usage: reduce [--runs R] [--sizes 10,16,20,24,28] [--seed S]
// The tuning sweep lives in tune/reduce_bench.cu.

#include "bench.cuh"

#include <gocccl/reduce.cuh>

#include <cub/device/device_reduce.cuh>

// Our own functors: CCCL 3.0 has no cub::Sum. Integer sums wrap, as Go's.
template <typename T>
struct Plus
{
  __host__ __device__ T operator()(const T& a, const T& b) const
  {
    if constexpr (std::is_integral<T>::value)
    {
      using U = typename std::make_unsigned<T>::type;
      return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    }
    else
    {
      return a + b;
    }
  }
};

#define BENCH_REDUCE(NAME, BT, IPT, T)                                                                        \
  extern "C" __global__ void __launch_bounds__(BT)                                                            \
    NAME##_partial(const T* d_in, long long n, T* d_out, T init, void* d_scratch)                             \
  {                                                                                                           \
    gocccl::reduce_single_pass<BT, IPT, T, Plus<T>>(d_in, n, d_out, init, d_scratch);                        \
  }                                                                                                           \
  extern "C" __global__ void __launch_bounds__(BT) NAME##_final(const T* d_in, long long n, T* d_out, T init) \
  {                                                                                                           \
    gocccl::reduce_final<BT, IPT, T, Plus<T>>(d_in, n, d_out, init);                                         \
  }

// The runtime's recommended policies (see kernels/include/gocccl/reduce.cuh).
BENCH_REDUCE(bench_reduce_i32, 256, 16, int32_t)
BENCH_REDUCE(bench_reduce_u32, 256, 16, uint32_t)
BENCH_REDUCE(bench_reduce_f32, 256, 16, float)
BENCH_REDUCE(bench_reduce_u64, 256, 8, uint64_t)
BENCH_REDUCE(bench_reduce_f64, 256, 8, double)

// Ours is the Go runtime's dispatch in C++: _final alone when n fits one
// tile, else the single pass (_partial here) over G = min(tiles, SMs *
// occupancy) blocks (one wave, runtime/gpu.go's resident), the last of which
// reduces the G partials it finds in the scratch (a zeroed counter, then the
// partials from byte 16). The environment's REDUCE_SUBSCRIPTION (waves, 1 by
// default) sets a larger grid, for tuning it.
static long long subscription()
{
  const char* s = std::getenv("REDUCE_SUBSCRIPTION");
  const long long k = s ? std::atoll(s) : 1;
  return k > 0 ? k : 1;
}

template <typename T>
struct Ours
{
  void (*partial)(const T*, long long, T*, T, void*);
  void (*final_)(const T*, long long, T*, T);
  int block_threads;
  int items_per_thread;
  int occupancy = 0;

  void init() { BENCH_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occupancy, partial, block_threads, 0)); }
  long long grid(long long n) const
  {
    const long long tile = static_cast<long long>(block_threads) * items_per_thread;
    if (n <= tile) return 0;
    return std::min<long long>((n + tile - 1) / tile, static_cast<long long>(bench::state().sms) * occupancy * subscription());
  }
  void run(const T* d_in, long long n, T* d_out, void* d_scratch) const
  {
    const long long g = grid(n);
    if (g == 0)
    {
      final_<<<1, block_threads>>>(d_in, n, d_out, T{});
      return;
    }
    partial<<<static_cast<unsigned>(g), block_threads>>>(d_in, n, d_out, T{}, d_scratch);
  }
};

// check_sum compares a result with the host's sum; "" means correct.
template <typename T>
std::string check_sum(const std::vector<T>& host, T got)
{
  char buf[160];
  if constexpr (std::is_integral<T>::value)
  {
    T want{};
    for (T v : host) want = Plus<T>{}(want, v);
    if (got == want) return "";
    std::snprintf(buf, sizeof buf, "got %llu, want %llu", static_cast<unsigned long long>(got),
                  static_cast<unsigned long long>(want));
    return buf;
  }
  else
  {
    long double want = 0, mag = 0;
    for (T v : host)
    {
      want += v;
      mag += std::fabs(static_cast<long double>(v));
    }
    const double tol = sizeof(T) == 4 ? 1e-5 : 1e-12;
    const double diff = static_cast<double>(std::fabs(static_cast<long double>(got) - want));
    if (diff <= tol * static_cast<double>(mag)) return "";
    std::snprintf(buf, sizeof buf, "got %.9g, want %.9Lg (difference %.3g)", static_cast<double>(got), want, diff);
    return buf;
  }
}

template <typename T>
void run_type(const Ours<T>& ours, uint64_t salt)
{
  const char* type = bench::type_name<T>();
  for (long long n : bench::sizes())
  {
    const std::vector<T> host = bench::random_items<T>(n, salt);
    bench::Rotation<T> in(host);
    const long long bytes = static_cast<long long>(in.bytes() + sizeof(T));
    bench::DeviceBuffer<T> out(1);

    bench::copy_row(in, host);

    // cub::DeviceReduce::Sum
    size_t temp_bytes = 0;
    BENCH_CK(cub::DeviceReduce::Sum(nullptr, temp_bytes, in.get(0), out.get(), static_cast<int>(n), cudaStream_t{}));
    bench::DeviceBuffer<unsigned char> temp(temp_bytes);
    auto cub_run = [&](int i) {
      size_t tb = temp_bytes;
      BENCH_CK(cub::DeviceReduce::Sum(temp.get(), tb, in.get(i), out.get(), static_cast<int>(n), cudaStream_t{}));
    };
    out.poison();
    cub_run(0);
    BENCH_CK(cudaDeviceSynchronize());
    std::string bad = check_sum(host, out.to_host()[0]);
    if (!bad.empty()) bench::fail("cub", "reduce", type, n, bytes, bad);
    else bench::row("cub", "reduce", type, n, bench::time_us(cub_run), bytes);

    // gocccl's kernels
    // 16 bytes of counter, zeroed once (each run leaves it zero), then partials.
    bench::DeviceBuffer<unsigned char> partials(static_cast<size_t>(16 + sizeof(T) * std::max<long long>(ours.grid(n), 1)));
    BENCH_CK(cudaMemset(partials.get(), 0, 16));
    auto our_run = [&](int i) { ours.run(in.get(i), n, out.get(), partials.get()); };
    out.poison();
    our_run(0);
    BENCH_CK(cudaGetLastError());
    BENCH_CK(cudaDeviceSynchronize());
    bad = check_sum(host, out.to_host()[0]);
    if (!bad.empty()) bench::fail("gocccl-kernels", "reduce", type, n, bytes, bad);
    else
      bench::row("gocccl-kernels", "reduce", type, n, bench::time_us(our_run), bytes,
                 "gocccl templates, Go runtime's dispatch in C++");
  }
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "reduce");
  std::printf("# CUB_VERSION %d\n", CUB_VERSION);
  Ours<int32_t> i32{bench_reduce_i32_partial, bench_reduce_i32_final, 256, 16};
  Ours<uint32_t> u32{bench_reduce_u32_partial, bench_reduce_u32_final, 256, 16};
  Ours<float> f32{bench_reduce_f32_partial, bench_reduce_f32_final, 256, 16};
  Ours<uint64_t> u64{bench_reduce_u64_partial, bench_reduce_u64_final, 256, 8};
  Ours<double> f64{bench_reduce_f64_partial, bench_reduce_f64_final, 256, 8};
  i32.init();
  u32.init();
  f32.init();
  u64.init();
  f64.init();
  run_type(i32, 1);
  run_type(u32, 2);
  run_type(f32, 3);
  run_type(u64, 4);
  run_type(f64, 5);
  return bench::finish();
}
