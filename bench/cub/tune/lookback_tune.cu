// lookback_tune.cu: gocccl's look-back kernels with CUB's default waits
// (DefaultDelay) and with the waits of CUB's sm_90 tuning (look_back.cuh),
// at gocccl's tile and at CUB's, beside CUB's own call, in one run:
//
//   scan           uint32, float32  inclusive sums; CUB sm_90: 128 x 24,
//                                   FixedDelay<648, 1245> (float: <688, 1140>)
//   scan_by_key    uint32, float32  values, uint32 keys in runs of mean length 7;
//                                   gocccl 256 x 9, CUB sm_90: 288 x 14,
//                                   FixedDelay<700, 1005>
//   reduce_by_key  uint32, float32  the same keys and values; 256 x 18,
//                                   CUB sm_90: NoDelay<1170>
//
// Every output is checked against the host before its row is timed. The
// system column names the variant: "gocccl-288x14-fixed700-1005". gocccl's
// kernels run as the Go runtime dispatches them (runtime/epochs.go): epoch
// tile states, each shape its own region, initialized by its first call;
// every call after is one launch with the next epoch (EpochDispatch).
//
// Build on the GPU machine, from the repository root:
//   nvcc -std=c++17 -O3 -arch=sm_90 -Ikernels/include -Ibench/cub \
//     -o /tmp/lookback_tune bench/cub/tune/lookback_tune.cu
//   /tmp/lookback_tune --sizes 20,24,28
// LOOKBACK_ONLY=bykey8 runs the 8-byte by-key rows (run_by_key8) and the
// uint32 by-key rows alone.
#include "bench.cuh"

#include <gocccl/look_back.cuh>
#include <gocccl/reduce_by_key.cuh>
#include <gocccl/scan.cuh>
#include <gocccl/scan_by_key.cuh>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <string>
#include <vector>

// With -DGOCCCL_AB_TAG=\"name\" only float32 runs, every row's system starts
// with the tag, and GOCCCL_AB_SUM picks the sum (bench/cub/tune/twin_ab.sh
// builds one binary of each; bench/NOTES.md, 2026-12-02, fourth session):
//   0  Go's fadd (amd64's NaNs, as generated operators compute them) alone
//   1  Go's fadd with a twin of plain + (gpu_nan.cuh), as gocccl-gen writes
//      float operators now: tiles with the twin, look-backs with fadd
//   2  plain + with a twin of plain +: the twins' checks, a plain look-back
//   3  plain + alone
#ifdef GOCCCL_AB_TAG
#include <gocccl/gosem.cuh>
#ifndef GOCCCL_AB_SUM
#define GOCCCL_AB_SUM 0
#endif
template <typename T>
struct Sum
{
  __device__ T operator()(T a, T b) const
  {
#if GOCCCL_AB_SUM >= 2
    return a + b;
#else
    return ::gocccl::go::fadd<T>(a, b);
#endif
  }
#if GOCCCL_AB_SUM == 1 || GOCCCL_AB_SUM == 2
  struct gpu_nan
  {
    __device__ T operator()(T a, T b) const { return a + b; }
  };
#endif
};
#else
template <typename T>
struct Sum
{
  __host__ __device__ T operator()(T a, T b) const { return a + b; }
};
#endif
struct EqU32
{
  __host__ __device__ bool operator()(unsigned a, unsigned b) const { return a == b; }
};

template <typename D> struct DelayName;
template <> struct DelayName<gocccl::DefaultDelay> { static std::string get() { return "default"; } };
template <unsigned A, unsigned B> struct DelayName<gocccl::FixedDelay<A, B>>
{
  static std::string get() { return "fixed" + std::to_string(A) + "-" + std::to_string(B); }
};
template <unsigned B> struct DelayName<gocccl::NoDelay<B>>
{
  static std::string get() { return "nodelay" + std::to_string(B); }
};

template <int THREADS, int ITEMS, typename D>
std::string system_name()
{
#ifdef GOCCCL_AB_TAG
  return std::string(GOCCCL_AB_TAG) + "-" + std::to_string(THREADS) + "x" + std::to_string(ITEMS) + "-" + DelayName<D>::get();
#endif
  return "gocccl-" + std::to_string(THREADS) + "x" + std::to_string(ITEMS) + "-" + DelayName<D>::get();
}

// min_blocks_name is a system name's suffix for a kernel launched with
// __launch_bounds__(THREADS, MINB): "" for MINB 1, else "-minMINB".
std::string min_blocks_name(int minb) { return minb == 1 ? "" : "-min" + std::to_string(minb); }

// EpochDispatch is the Go runtime's dispatch of a look-back over epoch tile
// states of S in one region: the init kernel by the first multi-tile call,
// then the sweep with epoch 1, 2, ...
template <typename S>
struct EpochDispatch
{
  static_assert(gocccl::epoch_tile_state_supported<S>, "EpochDispatch: look-back values of at most 16 bytes");
  long long tiles;
  bench::DeviceBuffer<unsigned char> state;
  unsigned epoch = 0;

  explicit EpochDispatch(long long tiles)
      : tiles(tiles)
      , state(gocccl::EpochTileState<S>::AllocationSize(tiles))
  {}
  long long bytes() const { return static_cast<long long>(state.size()); }
  void* ptr() const { return tiles > 1 ? state.get() : nullptr; }
  // next launches init (of THREADS threads a block) when the region is new
  // and returns the call's epoch (0 for a single tile: no state).
  template <int THREADS, typename Init>
  unsigned next(Init init)
  {
    if (tiles <= 1) return 0;
    if (epoch == 0)
      init<<<static_cast<unsigned>(std::min<long long>((bytes() / 8 + THREADS - 1) / THREADS, 4096)), THREADS>>>(
        state.get(), bytes(), tiles);
    return ++epoch;
  }
};

// ---- scan ----------------------------------------------------------------

template <int THREADS, int ITEMS, typename T>
__global__ void __launch_bounds__(THREADS) scan_init_kernel(void* d_state, long long bytes, long long tiles)
{
  gocccl::scan_init<THREADS, ITEMS, T, Sum<T>>(d_state, bytes, tiles);
}
template <int THREADS, int ITEMS, typename T, typename D>
__global__ void __launch_bounds__(THREADS) scan_kernel(const T* in, T* out, long long n, void* d_state, long long bytes,
                                                       unsigned epoch)
{
  gocccl::inclusive_scan<THREADS, ITEMS, T, Sum<T>>(in, out, n, d_state, bytes, epoch, T{}, nullptr, false, D());
}

template <typename T>
std::string check_sums(const std::vector<T>& in, const std::vector<T>& got, const std::vector<unsigned>* keys)
{
  T acc{};
  double exact = 0, mag = 0;
  for (size_t i = 0; i < in.size(); ++i)
  {
    if (keys && (i == 0 || (*keys)[i - 1] != (*keys)[i])) acc = T{}, exact = mag = 0;
    acc = acc + in[i];
    exact += double(in[i]);
    mag += std::fabs(double(in[i]));
    const bool bad = std::is_integral<T>::value ? got[i] != acc : !(std::fabs(double(got[i]) - exact) <= 1e-5 * mag + 1e-6);
    if (bad)
    {
      char buf[160];
      std::snprintf(buf, sizeof buf, "element %zu is %.9g, want %.9g", i, double(got[i]), double(exact));
      return buf;
    }
  }
  return "";
}

template <typename T, typename F, typename C>
void measure(const std::string& system, const char* alg, long long n, long long bytes, const bench::DeviceBuffer<T>& out,
             F&& fn, C&& check, const char* note)
{
  const char* type = bench::type_name<T>();
  out.poison();
  fn(0);
  BENCH_CK(cudaGetLastError());
  BENCH_CK(cudaDeviceSynchronize());
  const std::string bad = check(out.to_host());
  if (!bad.empty()) bench::fail(system.c_str(), alg, type, n, bytes, bad);
  else bench::row(system.c_str(), alg, type, n, bench::time_us(fn), bytes, note);
}

template <int THREADS, int ITEMS, typename T, typename D>
void scan_shape(const bench::Rotation<T>& in, const std::vector<T>& host, bench::DeviceBuffer<T>& out)
{
  const long long n = static_cast<long long>(host.size()), tile = THREADS * ITEMS, tiles = (n + tile - 1) / tile;
  EpochDispatch<T> states(tiles);
  auto fn = [&](int i) {
    const unsigned epoch = states.template next<THREADS>(scan_init_kernel<THREADS, ITEMS, T>);
    scan_kernel<THREADS, ITEMS, T, D><<<static_cast<unsigned>(tiles), THREADS>>>(in.get(i), out.get(), n, states.ptr(),
                                                                                  states.bytes(), epoch);
  };
  measure(system_name<THREADS, ITEMS, D>(), "scan", n, 2 * static_cast<long long>(in.bytes()), out, fn,
          [&](const std::vector<T>& got) { return check_sums(host, got, nullptr); }, "inclusive sum");
}

template <typename T, typename CubDelay>
void run_scan(uint64_t salt)
{
  for (long long n : bench::sizes())
  {
    const std::vector<T> host = bench::random_items<T>(n, salt);
    bench::Rotation<T> in(host);
    bench::DeviceBuffer<T> out(static_cast<size_t>(n));
    size_t cub_bytes = 0;
    BENCH_CK(cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, in.get(0), out.get(), static_cast<int>(n)));
    bench::DeviceBuffer<unsigned char> temp(cub_bytes);
    measure(std::string("cub"), "scan", n, 2 * static_cast<long long>(in.bytes()), out,
            [&](int i) {
              size_t tb = cub_bytes;
              BENCH_CK(cub::DeviceScan::InclusiveSum(temp.get(), tb, in.get(i), out.get(), static_cast<int>(n)));
            },
            [&](const std::vector<T>& got) { return check_sums(host, got, nullptr); }, "inclusive sum");
    scan_shape<128, 24, T, gocccl::DefaultDelay>(in, host, out);
    scan_shape<128, 24, T, CubDelay>(in, host, out);
    scan_shape<128, 24, T, gocccl::DefaultDelay>(in, host, out); // again: the order's effect
  }
}

// ---- scan by key ---------------------------------------------------------

template <int THREADS, int ITEMS, typename V>
__global__ void __launch_bounds__(THREADS) sbk_init_kernel(void* d_state, long long bytes, long long tiles)
{
  gocccl::scan_by_key_init<THREADS, ITEMS, unsigned, V, EqU32, Sum<V>>(d_state, bytes, tiles);
}
template <int THREADS, int ITEMS, typename V, typename D, int MINB = 1>
__global__ void __launch_bounds__(THREADS, MINB) sbk_kernel(const unsigned* k, const V* v, V* o, long long n, void* d_state,
                                                      long long bytes, unsigned epoch)
{
  gocccl::inclusive_scan_by_key<THREADS, ITEMS, unsigned, V, EqU32, Sum<V>>(k, v, o, n, d_state, bytes, epoch, D());
}

template <int THREADS, int ITEMS, typename V, typename D, int MINB = 1>
void sbk_shape(const bench::Rotation<unsigned>& kin, const bench::Rotation<V>& vin, const std::vector<unsigned>& keys,
               const std::vector<V>& host, bench::DeviceBuffer<V>& out)
{
  const long long n = static_cast<long long>(host.size()), tile = THREADS * ITEMS, tiles = (n + tile - 1) / tile;
  EpochDispatch<cub::KeyValuePair<int, V>> states(tiles); // scan_by_key.cuh's look-back pairs
  auto fn = [&](int i) {
    const unsigned epoch = states.template next<THREADS>(sbk_init_kernel<THREADS, ITEMS, V>);
    sbk_kernel<THREADS, ITEMS, V, D, MINB><<<static_cast<unsigned>(tiles), THREADS>>>(
      kin.get(i), vin.get(i), out.get(), n, states.ptr(), states.bytes(), epoch);
  };
  measure(system_name<THREADS, ITEMS, D>() + min_blocks_name(MINB), "scan_by_key", n, n * static_cast<long long>(4 + 2 * sizeof(V)), out, fn,
          [&](const std::vector<V>& got) { return check_sums(host, got, &keys); }, "uint32 keys in runs of mean length 7");
}

// ---- reduce by key -------------------------------------------------------

template <int THREADS, int ITEMS, typename V>
__global__ void __launch_bounds__(THREADS) rbk_init_kernel(void* d_state, long long bytes, long long tiles)
{
  gocccl::reduce_by_key_init<THREADS, ITEMS, unsigned, V, EqU32, Sum<V>>(d_state, bytes, tiles);
}
template <int THREADS, int ITEMS, typename V, typename D, int MINB = 1>
__global__ void __launch_bounds__(THREADS, MINB) rbk_kernel(const unsigned* k, const V* v, unsigned* uk, V* agg, int64_t* runs,
                                                      long long n, void* d_state, long long bytes, unsigned epoch)
{
  gocccl::reduce_by_key<THREADS, ITEMS, unsigned, V, EqU32, Sum<V>>(k, v, uk, agg, runs, n, d_state, bytes, epoch, D());
}

template <typename V>
struct Runs
{
  std::vector<unsigned> keys;
  std::vector<V> sums;
};

template <typename V>
Runs<V> reduce_runs(const std::vector<unsigned>& keys, const std::vector<V>& values)
{
  Runs<V> r;
  for (size_t i = 0; i < keys.size(); ++i)
  {
    if (i == 0 || keys[i] != keys[i - 1]) r.keys.push_back(keys[i]), r.sums.push_back(V{});
    r.sums.back() = r.sums.back() + values[i];
  }
  return r;
}

template <typename V>
std::string check_runs(const Runs<V>& want, const std::vector<unsigned>& keys, const std::vector<V>& sums, long long runs)
{
  if (runs != static_cast<long long>(want.keys.size())) return "run count differs";
  for (size_t i = 0; i < want.keys.size(); ++i)
  {
    const bool bad = std::is_integral<V>::value ? sums[i] != want.sums[i]
                                                : !(std::fabs(double(sums[i]) - double(want.sums[i])) <= 1e-4 * (1 + std::fabs(double(want.sums[i]))));
    if (keys[i] != want.keys[i] || bad) return "run " + std::to_string(i) + " differs";
  }
  return "";
}

template <int THREADS, int ITEMS, typename V, typename D, int MINB = 1>
void rbk_shape(const bench::Rotation<unsigned>& kin, const bench::Rotation<V>& vin, const Runs<V>& want)
{
  const char* type = bench::type_name<V>();
  const long long n = static_cast<long long>(kin.bytes() / sizeof(unsigned)), tile = THREADS * ITEMS,
                  tiles = (n + tile - 1) / tile;
  const long long bytes_moved = n * static_cast<long long>(4 + sizeof(V)) +
                                static_cast<long long>(want.keys.size()) * static_cast<long long>(4 + sizeof(V));
  EpochDispatch<gocccl::detail::RunPair<V>> states(tiles); // reduce_by_key.cuh's look-back pairs
  bench::DeviceBuffer<unsigned> uk(static_cast<size_t>(n));
  bench::DeviceBuffer<V> agg(static_cast<size_t>(n));
  bench::DeviceBuffer<int64_t> runs(1);
  auto fn = [&](int i) {
    const unsigned epoch = states.template next<THREADS>(rbk_init_kernel<THREADS, ITEMS, V>);
    rbk_kernel<THREADS, ITEMS, V, D, MINB><<<static_cast<unsigned>(tiles), THREADS>>>(
      kin.get(i), vin.get(i), uk.get(), agg.get(), runs.get(), n, states.ptr(), states.bytes(), epoch);
  };
  const std::string system = system_name<THREADS, ITEMS, D>() + min_blocks_name(MINB);
  uk.poison(), agg.poison(), runs.poison();
  fn(0);
  BENCH_CK(cudaGetLastError());
  BENCH_CK(cudaDeviceSynchronize());
  const std::string bad = check_runs(want, uk.to_host(), agg.to_host(), runs.to_host()[0]);
  if (!bad.empty()) bench::fail(system.c_str(), "reduce_by_key", type, n, bytes_moved, bad);
  else bench::row(system.c_str(), "reduce_by_key", type, n, bench::time_us(fn), bytes_moved, "runs of mean length 7");
}

template <typename V>
void cub_rbk(const bench::Rotation<unsigned>& kin, const bench::Rotation<V>& vin, const Runs<V>& want)
{
  const char* type = bench::type_name<V>();
  const long long n = static_cast<long long>(kin.bytes() / sizeof(unsigned));
  const long long bytes_moved = n * static_cast<long long>(4 + sizeof(V)) +
                                static_cast<long long>(want.keys.size()) * static_cast<long long>(4 + sizeof(V));
  bench::DeviceBuffer<unsigned> uk(static_cast<size_t>(n));
  bench::DeviceBuffer<V> agg(static_cast<size_t>(n));
  bench::DeviceBuffer<int> runs(1);
  size_t tb = 0;
  BENCH_CK(cub::DeviceReduce::ReduceByKey(nullptr, tb, kin.get(0), uk.get(), vin.get(0), agg.get(), runs.get(), Sum<V>(),
                                          static_cast<int>(n)));
  bench::DeviceBuffer<unsigned char> temp(tb);
  auto fn = [&](int i) {
    size_t t = tb;
    BENCH_CK(cub::DeviceReduce::ReduceByKey(temp.get(), t, kin.get(i), uk.get(), vin.get(i), agg.get(), runs.get(),
                                            Sum<V>(), static_cast<int>(n)));
  };
  uk.poison(), agg.poison(), runs.poison();
  fn(0);
  BENCH_CK(cudaDeviceSynchronize());
  const std::string bad = check_runs(want, uk.to_host(), agg.to_host(), runs.to_host()[0]);
  if (!bad.empty()) bench::fail("cub", "reduce_by_key", type, n, bytes_moved, bad);
  else bench::row("cub", "reduce_by_key", type, n, bench::time_us(fn), bytes_moved, "runs of mean length 7");
}

// cub_sbk times cub::DeviceScan::InclusiveSumByKey over the rotation's keys
// and values, its output checked first.
template <typename V>
void cub_sbk(const bench::Rotation<unsigned>& kin, const bench::Rotation<V>& vin, const std::vector<unsigned>& keys,
             const std::vector<V>& host, bench::DeviceBuffer<V>& out)
{
  const long long n = static_cast<long long>(host.size());
  size_t cub_bytes = 0;
  BENCH_CK(cub::DeviceScan::InclusiveSumByKey(nullptr, cub_bytes, kin.get(0), vin.get(0), out.get(), static_cast<int>(n),
                                              EqU32()));
  bench::DeviceBuffer<unsigned char> temp(cub_bytes);
  measure(std::string("cub"), "scan_by_key", n, n * static_cast<long long>(4 + 2 * sizeof(V)), out,
          [&](int i) {
            size_t tb = cub_bytes;
            BENCH_CK(cub::DeviceScan::InclusiveSumByKey(temp.get(), tb, kin.get(i), vin.get(i), out.get(),
                                                        static_cast<int>(n), EqU32()));
          },
          [&](const std::vector<V>& got) { return check_sums(host, got, &keys); }, "uint32 keys in runs of mean length 7");
}

template <typename V>
void run_by_key(uint64_t salt)
{
  using Fixed = gocccl::FixedDelay<700, 1005>;
  for (long long n : bench::sizes())
  {
    const std::vector<unsigned> keys = bench::keys_in_runs(n, salt);
    const std::vector<V> host = bench::random_items<V>(n, salt);
    bench::Rotation<unsigned> kin(keys);
    bench::Rotation<V> vin(host);
    bench::DeviceBuffer<V> out(static_cast<size_t>(n));
    cub_sbk<V>(kin, vin, keys, host, out);
    sbk_shape<256, 9, V, gocccl::DefaultDelay>(kin, vin, keys, host, out);
    sbk_shape<256, 9, V, Fixed>(kin, vin, keys, host, out);
    sbk_shape<288, 14, V, gocccl::DefaultDelay>(kin, vin, keys, host, out);
    sbk_shape<288, 14, V, Fixed>(kin, vin, keys, host, out);

    const Runs<V> want = reduce_runs(keys, host);
    cub_rbk<V>(kin, vin, want);
    rbk_shape<256, 18, V, gocccl::DefaultDelay>(kin, vin, want);
    rbk_shape<256, 18, V, gocccl::NoDelay<1170>>(kin, vin, want);
    rbk_shape<256, 18, V, gocccl::DefaultDelay, 3>(kin, vin, want); // CUB's 3 blocks an SM: 80 registers, spills
  }
}

// run_by_key8 times the 8-byte-value shapes (--only bykey8): gocccl's
// 256 x 9 (Policy520, what scanByKeyPolicy runs for 8 bytes), CUB 3.0's
// sm_90 tuning for 4-byte keys and 8-byte values (224 x 14,
// FixedDelay<556, 1195>) with and without minimum blocks (ptxas, CUDA 13:
// 80 registers unbounded, 72 at 4 blocks, 56 with small spills at 5), and
// ReduceByKey's 128 x 13 (CUB's tile) unbounded (128 registers: 4 blocks)
// and at CUB's occupancy (6 blocks: 80 registers, spills).
template <typename V>
void run_by_key8(uint64_t salt)
{
  using Fixed = gocccl::FixedDelay<556, 1195>;
  for (long long n : bench::sizes())
  {
    const std::vector<unsigned> keys = bench::keys_in_runs(n, salt);
    const std::vector<V> host = bench::random_items<V>(n, salt);
    bench::Rotation<unsigned> kin(keys);
    bench::Rotation<V> vin(host);
    bench::DeviceBuffer<V> out(static_cast<size_t>(n));
    cub_sbk<V>(kin, vin, keys, host, out);
    sbk_shape<256, 9, V, gocccl::DefaultDelay>(kin, vin, keys, host, out);
    sbk_shape<224, 14, V, gocccl::DefaultDelay>(kin, vin, keys, host, out);
    sbk_shape<224, 14, V, Fixed>(kin, vin, keys, host, out);
    sbk_shape<224, 14, V, gocccl::DefaultDelay, 4>(kin, vin, keys, host, out);
    sbk_shape<224, 14, V, Fixed, 4>(kin, vin, keys, host, out);
    sbk_shape<224, 14, V, Fixed, 5>(kin, vin, keys, host, out);
    sbk_shape<256, 9, V, gocccl::DefaultDelay>(kin, vin, keys, host, out); // again: the order's effect

    const Runs<V> want = reduce_runs(keys, host);
    cub_rbk<V>(kin, vin, want);
    rbk_shape<128, 13, V, gocccl::DefaultDelay>(kin, vin, want);
    rbk_shape<128, 13, V, gocccl::NoDelay<1055>>(kin, vin, want);
    rbk_shape<128, 13, V, gocccl::DefaultDelay, 6>(kin, vin, want);
  }
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "lookback_tune");
  std::printf("# CUB_VERSION %d, delay constructors %d\n", CUB_VERSION, GOCCCL_HAS_DELAY_CONSTRUCTORS);
#ifdef GOCCCL_AB_TAG
  run_scan<float, gocccl::FixedDelay<648, 1245>>(2);
  run_by_key<float>(4);
#else
  const char* only = std::getenv("LOOKBACK_ONLY"); // "bykey8": the 8-byte by-key rows alone
  if (only && std::string(only) == "bykey8")
  {
    run_by_key8<uint64_t>(5);
    run_by_key<uint32_t>(3);
    return bench::finish();
  }
  run_scan<uint32_t, gocccl::FixedDelay<648, 1245>>(1);
  run_scan<float, gocccl::FixedDelay<688, 1140>>(2);
  run_by_key<uint32_t>(3);
  run_by_key<float>(4);
#endif
  return bench::finish();
}
