// scan.cu: prefix sums side by side on the same inputs, one TSV row each
// (bench.cuh's format):
//
//   cub             scan                   cub::DeviceScan::InclusiveSum
//   cub             exclusive_scan         cub::DeviceScan::ExclusiveSum
//   cub             scan_by_key            cub::DeviceScan::InclusiveSumByKey
//   cub             exclusive_scan_by_key  cub::DeviceScan::ExclusiveSumByKey
//   gocccl-kernels  (the same four)        gocccl's scan.cuh / scan_by_key.cuh
//                                          templates behind extern "C" kernels,
//                                          dispatched as the Go runtime does
//                                          (epoch tile states: _init once per
//                                          region, then one sweep a call with
//                                          the next epoch; the sweep alone on
//                                          one block for one tile)
//
// for uint32 and float32 (values; keys are uint32 in runs of random length,
// mean 7), and CUB's scans and scans by key alone for uint64 and float64
// values (gocccl's come from the Go API, bench/gpubench/scan.go). Temp storage is
// allocated beforehand. Checks: integers exactly (wrapping), floats against a
// double prefix sum relative to the sum of magnitudes. bytes_moved: 2 n s for
// scans, n (4 + 2 s) by key.
//
// Usage: scan [--runs R] [--sizes 10,16,20,24,28] [--seed S]

#include "bench.cuh"

#include <gocccl/scan.cuh>
#include <gocccl/scan_by_key.cuh>

#include <cub/device/device_scan.cuh>

#include <string>
#include <vector>

struct SumU32
{
  __host__ __device__ unsigned operator()(unsigned a, unsigned b) const { return a + b; }
};
struct SumF32
{
  __host__ __device__ float operator()(float a, float b) const { return a + b; }
};

// Entry points as gocccl-gen writes them, at the sm_90 policy for 4-byte
// items (internal/algo/scan.go): 128 threads x 24 items, the look-back
// waits of CUB's sm_90 tuning.
constexpr int kThreads = 128, kItems = 24;
using ScanDelay = gocccl::FixedDelay<648, 1245>;

#define BENCH_SCAN(NAME, T, OP)                                                                                    \
  extern "C" __global__ void __launch_bounds__(kThreads) NAME##_init(void* d_state, long long bytes, long long tiles) \
  {                                                                                                                \
    gocccl::scan_init<kThreads, kItems, T, OP>(d_state, bytes, tiles);                                            \
  }                                                                                                                \
  extern "C" __global__ void __launch_bounds__(kThreads) NAME##_incl(                                              \
    const T* d_in, T* d_out, long long n, void* d_state, long long bytes, unsigned epoch, T init, const T* d_init, \
    bool has_init)                                                                                                 \
  {                                                                                                                \
    gocccl::inclusive_scan<kThreads, kItems, T, OP>(d_in, d_out, n, d_state, bytes, epoch, init, d_init, has_init,\
                                                    ScanDelay());                                                \
  }                                                                                                                \
  extern "C" __global__ void __launch_bounds__(kThreads) NAME##_excl(                                              \
    const T* d_in, T* d_out, long long n, void* d_state, long long bytes, unsigned epoch, T init, const T* d_init, \
    bool has_init)                                                                                                 \
  {                                                                                                                \
    gocccl::exclusive_scan<kThreads, kItems, T, OP>(d_in, d_out, n, d_state, bytes, epoch, init, d_init, has_init,\
                                                    ScanDelay());                                                \
  }

BENCH_SCAN(scan_u32, unsigned, SumU32)
BENCH_SCAN(scan_f32, float, SumF32)

struct EqU32
{
  __host__ __device__ bool operator()(unsigned a, unsigned b) const { return a == b; }
};

// Scans by key at internal/algo/scan_bykey.go's sm_90 policy for 4-byte
// keys and values.
constexpr int kKeyThreads = 288, kKeyItems = 14;

#define BENCH_SCAN_BY_KEY(NAME, V, OP)                                                                             \
  extern "C" __global__ void __launch_bounds__(kKeyThreads) NAME##_init(void* d_state, long long b, long long t)  \
  {                                                                                                                \
    gocccl::scan_by_key_init<kKeyThreads, kKeyItems, unsigned, V, EqU32, OP>(d_state, b, t);                      \
  }                                                                                                                \
  extern "C" __global__ void __launch_bounds__(kKeyThreads) NAME##_incl(                                           \
    const unsigned* k, const V* v, V* o, long long n, void* d_state, long long b, unsigned epoch)                   \
  {                                                                                                                \
    gocccl::inclusive_scan_by_key<kKeyThreads, kKeyItems, unsigned, V, EqU32, OP>(k, v, o, n, d_state, b, epoch); \
  }                                                                                                                \
  extern "C" __global__ void __launch_bounds__(kKeyThreads) NAME##_excl(                                           \
    const unsigned* k, const V* v, V* o, long long n, void* d_state, long long b, unsigned epoch, V init)           \
  {                                                                                                                \
    gocccl::exclusive_scan_by_key<kKeyThreads, kKeyItems, unsigned, V, EqU32, OP>(k, v, o, n, d_state, b, epoch,  \
                                                                                  init);                         \
  }

BENCH_SCAN_BY_KEY(sbk_u32, unsigned, SumU32)
BENCH_SCAN_BY_KEY(sbk_f32, float, SumF32)

template <typename T>
struct Ours
{
  void (*init)(void*, long long, long long);
  void (*incl)(const T*, T*, long long, void*, long long, unsigned, T, const T*, bool);
  void (*excl)(const T*, T*, long long, void*, long long, unsigned, T, const T*, bool);

  static long long tiles(long long n) { return (n + kThreads * kItems - 1) / (kThreads * kItems); }
  static size_t state_bytes(long long n) { return gocccl::EpochTileState<T>::AllocationSize(tiles(n)); }
  // The Go runtime's dispatch (runtime/scan.go, epochs.go): the epoch
  // region is initialized by the first call on it, and every later call
  // takes the next epoch and is one launch. Each size has its own region.
  mutable unsigned epoch = 0;
  void run(bool inclusive, const T* d_in, T* d_out, long long n, void* d_state, size_t bytes) const
  {
    const long long t = tiles(n);
    if (t > 1 && epoch == 0)
      init<<<static_cast<unsigned>(std::min<long long>((bytes / 8 + kThreads - 1) / kThreads, 4096)), kThreads>>>(
        d_state, bytes, t);
    auto sweep = inclusive ? incl : excl;
    sweep<<<static_cast<unsigned>(t), kThreads>>>(d_in, d_out, n, t > 1 ? d_state : nullptr, bytes, t > 1 ? ++epoch : 0,
                                                  T{}, nullptr, false);
  }
};

template <typename V>
struct OursByKey
{
  void (*init)(void*, long long, long long);
  void (*incl)(const unsigned*, const V*, V*, long long, void*, long long, unsigned);
  void (*excl)(const unsigned*, const V*, V*, long long, void*, long long, unsigned, V);

  // The look-back's values: (segment head flag, value) pairs, 8 bytes for
  // 4-byte V, in epoch tile states.
  using Pair = cub::KeyValuePair<int, V>;
  static_assert(gocccl::epoch_tile_state_supported<Pair>, "OursByKey: pairs of at most 16 bytes");

  static long long tiles(long long n) { return (n + kKeyThreads * kKeyItems - 1) / (kKeyThreads * kKeyItems); }
  static size_t state_bytes(long long n) { return gocccl::EpochTileState<Pair>::AllocationSize(tiles(n)); }
  // The Go runtime's dispatch (runtime/scan_bykey.go, epochs.go): the epoch
  // region is initialized by the first call on it, and every later call
  // takes the next epoch and is one launch. Each size has its own region.
  mutable unsigned epoch = 0;
  void run(bool inclusive, const unsigned* k, const V* v, V* o, long long n, void* d_state, size_t bytes) const
  {
    const long long t = tiles(n);
    if (t > 1 && epoch == 0)
      init<<<static_cast<unsigned>(std::min<long long>((bytes / 8 + kKeyThreads - 1) / kKeyThreads, 4096)),
             kKeyThreads>>>(d_state, bytes, t);
    void* st = t > 1 ? d_state : nullptr;
    const unsigned e = t > 1 ? ++epoch : 0;
    if (inclusive) incl<<<static_cast<unsigned>(t), kKeyThreads>>>(k, v, o, n, st, bytes, e);
    else excl<<<static_cast<unsigned>(t), kKeyThreads>>>(k, v, o, n, st, bytes, e, V{});
  }
};

// check_scan returns "" when got is the (in/ex)clusive prefix sum of in,
// restarting at every key change when keys is not null.
template <typename T>
std::string check_scan(const std::vector<T>& in, const std::vector<T>& got, bool inclusive,
                       const std::vector<unsigned>* keys = nullptr)
{
  T acc{};
  double exact = 0, mag = 0;
  for (size_t i = 0; i < in.size(); ++i)
  {
    if (keys && (i == 0 || (*keys)[i - 1] != (*keys)[i]))
    {
      acc = T{};
      exact = mag = 0;
    }
    if (inclusive)
    {
      acc = acc + in[i];
      exact += double(in[i]);
      mag += std::fabs(double(in[i]));
    }
    const bool bad = std::is_integral<T>::value ? got[i] != acc
                                                : !(std::fabs(double(got[i]) - exact) <= 1e-5 * mag + 1e-6);
    if (bad)
    {
      char buf[160];
      std::snprintf(buf, sizeof buf, "element %zu is %.9g, want %.9g", i, double(got[i]),
                    std::is_integral<T>::value ? double(acc) : exact);
      return buf;
    }
    if (!inclusive)
    {
      acc = acc + in[i];
      exact += double(in[i]);
      mag += std::fabs(double(in[i]));
    }
  }
  return "";
}

// measure poisons out, runs fn(0), checks, and prints the row or the failure.
template <typename T, typename F, typename C>
void measure(const char* system, const char* alg, const char* type, long long n, long long bytes,
             const bench::DeviceBuffer<T>& out, F&& fn, C&& check, const char* note = "")
{
  out.poison();
  fn(0);
  BENCH_CK(cudaGetLastError());
  BENCH_CK(cudaDeviceSynchronize());
  const std::string bad = check(out.to_host());
  if (!bad.empty()) bench::fail(system, alg, type, n, bytes, bad);
  else bench::row(system, alg, type, n, bench::time_us(fn), bytes, note);
}

// run_scans times CUB's sums and, when ours is not null, our kernels'.
template <typename T>
void run_scans(const Ours<T>* ours, uint64_t salt)
{
  const char* type = bench::type_name<T>();
  for (long long n : bench::sizes())
  {
    const std::vector<T> host = bench::random_items<T>(n, salt);
    bench::Rotation<T> in(host);
    bench::DeviceBuffer<T> out(static_cast<size_t>(n));
    const long long bytes = 2 * static_cast<long long>(in.bytes());
    size_t cub_bytes = 0, b2 = 0;
    BENCH_CK(cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, in.get(0), out.get(), static_cast<int>(n)));
    BENCH_CK(cub::DeviceScan::ExclusiveSum(nullptr, b2, in.get(0), out.get(), static_cast<int>(n)));
    bench::DeviceBuffer<unsigned char> temp(std::max(cub_bytes, b2));
    const size_t state = ours ? Ours<T>::state_bytes(n) : 0;
    bench::DeviceBuffer<unsigned char> d_state(state);
    if (ours)
      ours->epoch = 0; // a new region for this size
    for (int inclusive = 1; inclusive >= 0; --inclusive)
    {
      const char* alg = inclusive ? "scan" : "exclusive_scan";
      auto check = [&](const std::vector<T>& got) { return check_scan(host, got, inclusive != 0); };
      measure("cub", alg, type, n, bytes, out,
              [&](int i) {
                size_t tb = temp.size();
                if (inclusive)
                  BENCH_CK(cub::DeviceScan::InclusiveSum(temp.get(), tb, in.get(i), out.get(), static_cast<int>(n)));
                else
                  BENCH_CK(cub::DeviceScan::ExclusiveSum(temp.get(), tb, in.get(i), out.get(), static_cast<int>(n)));
              },
              check);
      if (ours)
        measure("gocccl-kernels", alg, type, n, bytes, out,
                [&](int i) { ours->run(inclusive != 0, in.get(i), out.get(), n, d_state.get(), state); }, check,
                "gocccl templates, Go runtime's dispatch in C++");
    }
  }
}

// run_by_key times CUB's sums by key and, when ours is not null, our kernels'.
template <typename V>
void run_by_key(const OursByKey<V>* ours, uint64_t salt)
{
  const char* type = bench::type_name<V>();
  for (long long n : bench::sizes())
  {
    const std::vector<unsigned> keys = bench::keys_in_runs(n, salt);
    const std::vector<V> host = bench::random_items<V>(n, salt);
    bench::Rotation<unsigned> kin(keys);
    bench::Rotation<V> vin(host);
    bench::DeviceBuffer<V> out(static_cast<size_t>(n));
    const long long bytes = static_cast<long long>(n) * static_cast<long long>(4 + 2 * sizeof(V));
    size_t cub_bytes = 0, b2 = 0;
    BENCH_CK(cub::DeviceScan::InclusiveSumByKey(nullptr, cub_bytes, kin.get(0), vin.get(0), out.get(),
                                                static_cast<int>(n), EqU32()));
    BENCH_CK(cub::DeviceScan::ExclusiveSumByKey(nullptr, b2, kin.get(0), vin.get(0), out.get(), static_cast<int>(n),
                                                EqU32()));
    bench::DeviceBuffer<unsigned char> temp(std::max(cub_bytes, b2));
    const size_t state = ours ? OursByKey<V>::state_bytes(n) : 0;
    bench::DeviceBuffer<unsigned char> d_state(state);
    if (ours)
      ours->epoch = 0; // a new region for this size
    for (int inclusive = 1; inclusive >= 0; --inclusive)
    {
      const char* alg = inclusive ? "scan_by_key" : "exclusive_scan_by_key";
      auto check = [&](const std::vector<V>& got) { return check_scan(host, got, inclusive != 0, &keys); };
      measure("cub", alg, type, n, bytes, out,
              [&](int i) {
                size_t tb = temp.size();
                if (inclusive)
                  BENCH_CK(cub::DeviceScan::InclusiveSumByKey(temp.get(), tb, kin.get(i), vin.get(i), out.get(),
                                                              static_cast<int>(n), EqU32()));
                else
                  BENCH_CK(cub::DeviceScan::ExclusiveSumByKey(temp.get(), tb, kin.get(i), vin.get(i), out.get(),
                                                              static_cast<int>(n), EqU32()));
              },
              check, "uint32 keys in runs of mean length 7");
      if (ours)
        measure("gocccl-kernels", alg, type, n, bytes, out,
                [&](int i) { ours->run(inclusive != 0, kin.get(i), vin.get(i), out.get(), n, d_state.get(), state); },
                check, "uint32 keys in runs of mean length 7; gocccl templates, Go runtime's dispatch in C++");
    }
  }
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "scan");
  std::printf("# CUB_VERSION %d\n", CUB_VERSION);
  const Ours<unsigned> u32{scan_u32_init, scan_u32_incl, scan_u32_excl};
  const Ours<float> f32{scan_f32_init, scan_f32_incl, scan_f32_excl};
  run_scans(&u32, 1);
  run_scans(&f32, 2);
  // 8-byte sums: CUB's rows beside gocccl's through Go (gpubench); no C++
  // dispatch of ours at the 8-byte policy here.
  run_scans<uint64_t>(nullptr, 5);
  run_scans<double>(nullptr, 6);
  const OursByKey<unsigned> ku32{sbk_u32_init, sbk_u32_incl, sbk_u32_excl};
  const OursByKey<float> kf32{sbk_f32_init, sbk_f32_incl, sbk_f32_excl};
  run_by_key(&ku32, 3);
  run_by_key(&kf32, 4);
  run_by_key<uint64_t>(nullptr, 7);
  run_by_key<double>(nullptr, 8);
  return bench::finish();
}
