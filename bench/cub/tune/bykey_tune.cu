// bykey_tune.cu: gocccl's scans by key (scan_by_key.cuh) as gocccl-gen
// instantiates them for bench/ops (uint32 keys; Go's operators with their
// twins, the generated code's flags) beside cub::DeviceScan's
// InclusiveSumByKey / ExclusiveSumByKey, for the A/B of issue 38: the same
// source built without and with -DGOCCCL_EXPERIMENT_BYKEY_FOLD
// (bench/cub/tune/bykey_ab.sh builds and runs both).
//
//   values   uint32, float32: 288 x 14, DefaultDelay, no bound (bench/ops)
//            uint64, float64: 224 x 14, FixedDelay<556, 1195>, at 4 blocks
//            an SM (bench/ops) and at 5 (the experiment's bound)
//   keys     uint32 in runs of mean length 7 (bench::keys_in_runs)
//
// Before any row is timed its output is compared on the GPU with CUB's over
// the same input: bitwise for integers, within 2e-5 relative for floats (a
// different association; CUB's tile differs), NaN where CUB's is NaN. Every
// row's note ends with "hash H", an order-independent 64-bit hash of the
// output's bits: the A/B script compares the two builds' hashes (the fold
// claims bit-identical results, floats included). Before the timed sizes,
// check-only cases run every shape at n = 1, 1000, TILE - 1, TILE, TILE + 1,
// 3 TILE + 17, 10^6 + 3, and floats with NaNs (the twin's rescan), printed
// as "# check" lines.
//
// Rows: system GOCCCL_SYSTEM-THREADSxITEMS-DELAY[-minB] ("base" or "fold"
// from bykey_ab.sh; "gocccl" by default) and "cub"; algorithm
// inclusive_scan_by_key / exclusive_scan_by_key.
//
// Build by hand (the flags gocccl-gen compiles with):
//   nvcc -std=c++17 -O3 -fmad=false -ftz=false -prec-div=true -prec-sqrt=true \
//     -arch=sm_90 -Ikernels/include -Ibench/cub [-DGOCCCL_EXPERIMENT_BYKEY_FOLD \
//     -DGOCCCL_SYSTEM=\"fold\"] -o /tmp/bykey_tune bench/cub/tune/bykey_tune.cu
//   /tmp/bykey_tune --sizes 20,24,28 [--only uint32,float64] (--only: value types)
#include "bench.cuh"
#include "epoch_region.cuh"

#include <gocccl/gosem.cuh>
#include <gocccl/look_back.cuh>
#include <gocccl/scan_by_key.cuh>

#include <cub/device/device_scan.cuh>

#include <cmath>
#include <string>
#include <vector>

#ifndef GOCCCL_SYSTEM
#define GOCCCL_SYSTEM "gocccl"
#endif

#ifdef GOCCCL_EXPERIMENT_BYKEY_FOLD
static const char* const variant = "fold (GOCCCL_EXPERIMENT_BYKEY_FOLD)";
#else
static const char* const variant = "base";
#endif

// Sum is the sum as bench/ops' generated functors compute it: go::add for
// integers, go::fadd (amd64's NaNs) for floats with a twin of plain + with
// the GPU's NaNs (gpu_nan.cuh), which the tiles scan with first.
template <typename T, bool FLOAT = std::is_floating_point<T>::value>
struct Sum
{
  __device__ __forceinline__ T operator()(T a, T b) const { return ::gocccl::go::add(a, b); }
};
template <typename T>
struct Sum<T, true>
{
  __device__ __forceinline__ T operator()(T a, T b) const { return ::gocccl::go::fadd<T>(a, b); }
  struct gpu_nan
  {
    __device__ __forceinline__ T operator()(T a, T b) const { return a + b; }
  };
};
struct EqU32
{
  __host__ __device__ __forceinline__ bool operator()(unsigned a, unsigned b) const { return a == b; }
};

template <typename D> struct DelayName;
template <> struct DelayName<gocccl::DefaultDelay> { static std::string get() { return "default"; } };
template <unsigned A, unsigned B> struct DelayName<gocccl::FixedDelay<A, B>>
{
  static std::string get() { return "fixed" + std::to_string(A) + "-" + std::to_string(B); }
};

// ---- kernels ---------------------------------------------------------------

template <int THREADS, int ITEMS, typename V>
__global__ void __launch_bounds__(THREADS) sbk_init_kernel(void* d_state, long long bytes, long long tiles)
{
  gocccl::scan_by_key_init<THREADS, ITEMS, unsigned, V, EqU32, Sum<V>>(d_state, bytes, tiles);
}

// The sweeps as gocccl-gen writes them: exclusive takes init as a kernel
// argument; __launch_bounds__(THREADS) without a minimum where the policy
// has none (MINB 0: ptxas gives (THREADS, 1) other registers), else
// (THREADS, MINB).
template <typename V, typename D, int THREADS, int ITEMS, bool INCLUSIVE>
__device__ __forceinline__ void sbk_body(const unsigned* k, const V* v, V* o, long long n, void* d_state, long long bytes,
                                         unsigned epoch, V init)
{
  if constexpr (INCLUSIVE)
  {
    (void) init;
    gocccl::inclusive_scan_by_key<THREADS, ITEMS, unsigned, V, EqU32, Sum<V>>(k, v, o, n, d_state, bytes, epoch, D());
  }
  else
  {
    gocccl::exclusive_scan_by_key<THREADS, ITEMS, unsigned, V, EqU32, Sum<V>>(k, v, o, n, d_state, bytes, epoch, init,
                                                                              D());
  }
}
template <int THREADS, int ITEMS, typename V, typename D, bool INCLUSIVE>
__global__ void __launch_bounds__(THREADS)
  sbk_kernel(const unsigned* k, const V* v, V* o, long long n, void* d_state, long long bytes, unsigned epoch, V init)
{
  sbk_body<V, D, THREADS, ITEMS, INCLUSIVE>(k, v, o, n, d_state, bytes, epoch, init);
}
template <int THREADS, int ITEMS, typename V, typename D, int MINB, bool INCLUSIVE>
__global__ void __launch_bounds__(THREADS, MINB)
  sbk_kernel_min(const unsigned* k, const V* v, V* o, long long n, void* d_state, long long bytes, unsigned epoch, V init)
{
  sbk_body<V, D, THREADS, ITEMS, INCLUSIVE>(k, v, o, n, d_state, bytes, epoch, init);
}

// launch enqueues one sweep of tiles blocks.
template <int THREADS, int ITEMS, typename V, typename D, int MINB, bool INCLUSIVE>
void launch(long long tiles, const unsigned* k, const V* v, V* o, long long n, void* d_state, long long bytes,
            unsigned epoch)
{
  const unsigned grid = static_cast<unsigned>(tiles);
  if constexpr (MINB == 0)
    sbk_kernel<THREADS, ITEMS, V, D, INCLUSIVE><<<grid, THREADS>>>(k, v, o, n, d_state, bytes, epoch, V{});
  else
    sbk_kernel_min<THREADS, ITEMS, V, D, MINB, INCLUSIVE><<<grid, THREADS>>>(k, v, o, n, d_state, bytes, epoch, V{});
}

template <typename V>
__device__ __forceinline__ unsigned long long bits_of(V x)
{
  if constexpr (sizeof(V) == 8)
  {
    unsigned long long b;
    memcpy(&b, &x, 8);
    return b;
  }
  else
  {
    unsigned b;
    memcpy(&b, &x, 4);
    return b;
  }
}

__device__ __forceinline__ unsigned long long mix64(unsigned long long z)
{
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// compare_kernel counts the items where got differs from want (see the file
// comment) in out[0], keeps the smallest such index in out[1], and adds a
// hash of every (index, bits of got) pair into out[2].
template <typename V>
__global__ void compare_kernel(const V* got, const V* want, long long n, unsigned long long* out)
{
  unsigned long long bad = 0, first = ~0ull, hash = 0;
  for (long long i = blockIdx.x * 1ll * blockDim.x + threadIdx.x; i < n; i += 1ll * gridDim.x * blockDim.x)
  {
    const V a = got[i], b = want[i];
    bool ok;
    if constexpr (std::is_floating_point<V>::value)
    {
      ok = isnan(b) ? bool(isnan(a)) : (!isnan(a) && fabs(double(a) - double(b)) <= 2e-5 * fabs(double(b)));
    }
    else
    {
      ok = a == b;
    }
    if (!ok)
    {
      ++bad;
      first = first < static_cast<unsigned long long>(i) ? first : static_cast<unsigned long long>(i);
    }
    hash += mix64(bits_of(a) ^ mix64(static_cast<unsigned long long>(i) + 0x9E3779B97F4A7C15ull));
  }
  if (bad)
  {
    atomicAdd(&out[0], bad);
    atomicMin(&out[1], first);
  }
  atomicAdd(&out[2], hash);
}

// ---- host ------------------------------------------------------------------

struct Compared
{
  unsigned long long bad, first, hash;
};

// compare runs compare_kernel over got and want (n items).
template <typename V>
Compared compare(const V* got, const V* want, long long n)
{
  bench::DeviceBuffer<unsigned long long> out(3);
  const unsigned long long init[3] = {0, ~0ull, 0};
  BENCH_CK(cudaMemcpy(out.get(), init, sizeof init, cudaMemcpyHostToDevice));
  compare_kernel<V><<<1024, 256>>>(got, want, n, out.get());
  BENCH_CK(cudaGetLastError());
  const std::vector<unsigned long long> h = out.to_host();
  return {h[0], h[1], h[2]};
}

std::string hex(unsigned long long x)
{
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", x);
  return buf;
}

// Input is one case's keys and values on the device and CUB's results.
template <typename V>
struct Input
{
  long long n;
  bench::Rotation<unsigned> keys;
  bench::Rotation<V> values;
  bench::DeviceBuffer<V> cub_incl, cub_excl, out;

  Input(const std::vector<unsigned>& k, const std::vector<V>& v)
      : n(static_cast<long long>(k.size()))
      , keys(k)
      , values(v)
      , cub_incl(k.size())
      , cub_excl(k.size())
      , out(k.size())
  {}

  // cub_call enqueues CUB's scan of copy i into dst.
  void cub_call(bool inclusive, int i, V* dst, bench::DeviceBuffer<unsigned char>& temp, size_t bytes) const
  {
    size_t tb = bytes;
    if (inclusive)
      BENCH_CK(cub::DeviceScan::InclusiveSumByKey(temp.get(), tb, keys.get(i), values.get(i), dst, static_cast<int>(n),
                                                  EqU32()));
    else
      BENCH_CK(cub::DeviceScan::ExclusiveSumByKey(temp.get(), tb, keys.get(i), values.get(i), dst, static_cast<int>(n),
                                                  EqU32()));
  }
  size_t cub_bytes(bool inclusive) const
  {
    size_t tb = 0;
    if (inclusive)
      BENCH_CK(cub::DeviceScan::InclusiveSumByKey(nullptr, tb, keys.get(0), values.get(0), out.get(), static_cast<int>(n),
                                                  EqU32()));
    else
      BENCH_CK(cub::DeviceScan::ExclusiveSumByKey(nullptr, tb, keys.get(0), values.get(0), out.get(), static_cast<int>(n),
                                                  EqU32()));
    return tb;
  }

  // run_cub computes CUB's results into cub_incl and cub_excl and, when
  // timed, times both.
  void run_cub(bool timed)
  {
    const char* type = bench::type_name<V>();
    for (bool inclusive : {true, false})
    {
      bench::DeviceBuffer<V>& dst = inclusive ? cub_incl : cub_excl;
      const size_t bytes = cub_bytes(inclusive);
      bench::DeviceBuffer<unsigned char> temp(bytes);
      dst.poison();
      cub_call(inclusive, 0, dst.get(), temp, bytes);
      BENCH_CK(cudaGetLastError());
      BENCH_CK(cudaDeviceSynchronize());
      if (!timed) continue;
      const Compared c = compare(dst.get(), dst.get(), n);
      const double us = bench::time_us([&](int i) { cub_call(inclusive, i, dst.get(), temp, bytes); });
      bench::row("cub", inclusive ? "inclusive_scan_by_key" : "exclusive_scan_by_key", type, n, us, moved(),
                 std::string(inclusive ? "InclusiveSumByKey" : "ExclusiveSumByKey") + ", uint32 keys in runs of mean length 7, hash " + hex(c.hash));
    }
  }
  long long moved() const { return n * static_cast<long long>(4 + 2 * sizeof(V)); }
};

// shape checks (and, when timed, times) one kernel shape on in, both scans.
template <int THREADS, int ITEMS, typename V, typename D, int MINB>
void shape(Input<V>& in, bool timed, const char* what)
{
  const char* type = bench::type_name<V>();
  const long long n = in.n, tile = THREADS * ITEMS, tiles = (n + tile - 1) / tile;
  const std::string system = std::string(GOCCCL_SYSTEM) + "-" + std::to_string(THREADS) + "x" + std::to_string(ITEMS) + "-" +
                             DelayName<D>::get() + (MINB > 0 ? "-min" + std::to_string(MINB) : "");
  for (bool inclusive : {true, false})
  {
    const char* alg = inclusive ? "inclusive_scan_by_key" : "exclusive_scan_by_key";
    // A region per scan, as the Go runtime keeps one per stream and shape.
    bench::EpochRegion states(tiles, bench::EpochRegion::bytes_for<cub::KeyValuePair<int, V>>(tiles));
    states.init_once(THREADS, [&](unsigned grid, void* d, long long bytes, long long t) {
      sbk_init_kernel<THREADS, ITEMS, V><<<grid, THREADS>>>(d, bytes, t);
    });
    auto fn = [&](int i) {
      const unsigned epoch = states.next();
      if (inclusive)
        launch<THREADS, ITEMS, V, D, MINB, true>(tiles, in.keys.get(i), in.values.get(i), in.out.get(), n, states.ptr(),
                                                 states.bytes(), epoch);
      else
        launch<THREADS, ITEMS, V, D, MINB, false>(tiles, in.keys.get(i), in.values.get(i), in.out.get(), n, states.ptr(),
                                                  states.bytes(), epoch);
    };
    in.out.poison();
    fn(0);
    BENCH_CK(cudaGetLastError());
    BENCH_CK(cudaDeviceSynchronize());
    const Compared c = compare(in.out.get(), (inclusive ? in.cub_incl : in.cub_excl).get(), n);
    if (c.bad)
    {
      bench::fail(system.c_str(), alg, type, n, in.moved(),
                  std::string(what) + ": " + std::to_string(c.bad) + " items differ from CUB's, the first at " +
                    std::to_string(c.first));
      continue;
    }
    if (!timed)
    {
      std::printf("# check\t%s\t%s\t%s\t%lld\tok\t%s\thash %s\n", system.c_str(), alg, type, n, what, hex(c.hash).c_str());
      continue;
    }
    bench::row(system.c_str(), alg, type, n, bench::time_us(fn), in.moved(),
               std::string(what) + ", hash " + hex(c.hash));
  }
}

template <typename V>
void shapes(Input<V>& in, bool timed, const char* what)
{
  if constexpr (sizeof(V) <= 4)
  {
    shape<288, 14, V, gocccl::DefaultDelay, 0>(in, timed, what);
  }
  else
  {
    using Fixed = gocccl::FixedDelay<556, 1195>;
    shape<224, 14, V, Fixed, 4>(in, timed, what);
    shape<224, 14, V, Fixed, 5>(in, timed, what);
  }
}

// check runs the check-only cases of V (see the file comment).
template <typename V>
void check(uint64_t salt)
{
  if (!bench::wants(bench::type_name<V>())) return;
  const long long tile = sizeof(V) <= 4 ? 288 * 14 : 224 * 14;
  for (long long n : {1ll, 1000ll, tile - 1, tile, tile + 1, 3 * tile + 17, 1000003ll})
  {
    Input<V> in(bench::keys_in_runs(n, salt), bench::random_items<V>(n, salt));
    in.run_cub(false);
    shapes<V>(in, false, "check");
  }
  if constexpr (std::is_floating_point<V>::value)
  {
    // NaNs (the twins' rescans): one in the first tile, then every 100003rd.
    const long long n = 1000003;
    std::vector<V> v = bench::random_items<V>(n, salt + 1);
    for (long long i = 17; i < n; i += 100003) v[static_cast<size_t>(i)] = static_cast<V>(NAN);
    Input<V> in(bench::keys_in_runs(n, salt + 1), v);
    in.run_cub(false);
    shapes<V>(in, false, "check with NaNs");
  }
}

// timed checks and times V's rows over keys.
template <typename V>
void timed(const std::vector<unsigned>& keys, uint64_t salt)
{
  if (!bench::wants(bench::type_name<V>())) return;
  Input<V> in(keys, bench::random_items<V>(static_cast<long long>(keys.size()), salt));
  in.run_cub(true);
  shapes<V>(in, true, "uint32 keys in runs of mean length 7");
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "bykey_tune");
  std::printf("# CUB_VERSION %d, variant %s, system %s\n", CUB_VERSION, variant, GOCCCL_SYSTEM);
  check<uint32_t>(3);
  check<float>(4);
  check<uint64_t>(5);
  check<double>(6);
  for (long long n : bench::sizes())
  {
    const std::vector<unsigned> keys = bench::keys_in_runs(n, 1); // one key array for every value type
    timed<uint32_t>(keys, 3);
    timed<float>(keys, 4);
    timed<uint64_t>(keys, 5);
    timed<double>(keys, 6);
  }
  return bench::finish();
}
