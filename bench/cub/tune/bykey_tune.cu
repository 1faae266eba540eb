// CONCLUDED (fifteenth session): the macros below no longer exist in the
// headers (RBK_REGS and KEYS_AGAIN landed as the kernel, BYKEY_FOLD was taken
// back; bench/NOTES.md); this file still checks and times the kernels.
// bykey_tune.cu: gocccl's scans by key (scan_by_key.cuh) and ReduceByKey
// (reduce_by_key.cuh) as gocccl-gen instantiates them for bench/ops (uint32
// keys; Go's operators with their twins; gocccl-gen's flags) beside CUB's
// calls, for the A/B of issue 38: the same source built without and with
// the experiments' macros (bench/cub/tune/bykey_ab.sh builds and runs them):
//
//   GOCCCL_EXPERIMENT_BYKEY_FOLD     scan_by_key.cuh: BlockScanRolledFold and
//                                    the staged last tile
//   GOCCCL_EXPERIMENT_RBK_REGS       reduce_by_key.cuh: int counts of the
//                                    tile's heads, head bits, values read again
//   GOCCCL_EXPERIMENT_RBK_KEYS_AGAIN with RBK_REGS: heads' keys read again
//
// Shapes (bench/ops' policy first, then the experiments' bounds):
//   scan by key     uint32, float32: 288 x 14, DefaultDelay, no bound, and
//                   at 5 blocks an SM (what the fold's 40 registers give)
//                   uint64, float64: 224 x 14, FixedDelay<556, 1195>, at 4
//                   blocks an SM (the policy) and at 5
//   reduce by key   uint32, float32: 256 x 18 unbounded (the policy), at 3
//                   uint64, float64: 128 x 13 unbounded (the policy), at 6
//                   both: 128 x 6 unbounded (CUB's DefaultPolicy tile)
// beside cub::DeviceScan::InclusiveSumByKey / ExclusiveSumByKey and
// cub::DeviceReduce::ReduceByKey with a plain sum functor (as
// bench/cub/segmented.cu: CUB's DefaultPolicy, see bench/NOTES.md, seventh
// session). Keys: uint32 in runs of mean length 7, values random (floats
// in [0, 1)), both generated on the GPU, so a run takes seconds.
//
// Before any row is timed its output is compared on the GPU with CUB's over
// the same input: integers bitwise, floats within 2e-5 relative (another
// association: CUB's tiles differ), NaN where CUB's is NaN; ReduceByKey's
// run count and unique keys exactly. Every row's note ends with "hash H",
// an order-independent hash of the output's bits: the A/B script compares
// the builds' hashes (the experiments claim bit-identical results, floats
// included). Check-only cases first run every shape at n = 1, 1000, tile
// edges, 3 tiles + 17, 10^6 + 3, one run, all keys distinct and, for
// floats, with NaNs (the twins' rescans, also where a tile's inclusive
// prefix is a NaN), printed as "# check" lines.
//
// Rows: system GOCCCL_SYSTEM-THREADSxITEMS-DELAY[-minB] (the A/B script's
// build tag; "gocccl" by default) and "cub"; algorithms
// inclusive_scan_by_key, exclusive_scan_by_key, reduce_by_key.
//
// Build by hand (gocccl-gen's flags; add -D macros above and
// -DGOCCCL_SYSTEM=\"tag\"):
//   nvcc -std=c++17 -O3 -fmad=false -ftz=false -prec-div=true -prec-sqrt=true \
//     -arch=sm_90 -Ikernels/include -Ibench/cub -Ibench/cub/tune \
//     -o /tmp/bykey_tune bench/cub/tune/bykey_tune.cu
//   /tmp/bykey_tune --sizes 20,24,28 [--only scan,rbk,uint32,float32,uint64,float64]
// --only names parts and value types; a list without a part runs both parts,
// one without a type every type.
#include "bench.cuh"
#include "epoch_region.cuh"

#include <gocccl/gosem.cuh>
#include <gocccl/look_back.cuh>
#include <gocccl/reduce_by_key.cuh>
#include <gocccl/scan_by_key.cuh>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <cmath>
#include <string>
#include <vector>

#ifndef GOCCCL_SYSTEM
#define GOCCCL_SYSTEM "gocccl"
#endif

static std::string variant()
{
  std::string v;
#ifdef GOCCCL_EXPERIMENT_BYKEY_FOLD
  v += " BYKEY_FOLD";
#endif
#ifdef GOCCCL_EXPERIMENT_RBK_REGS
  v += " RBK_REGS";
#endif
#ifdef GOCCCL_EXPERIMENT_RBK_KEYS_AGAIN
  v += " RBK_KEYS_AGAIN";
#endif
  return v.empty() ? " none" : v;
}

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
// PlainSum is bench/cub/segmented.cu's functor for CUB's ReduceByKey.
struct PlainSum
{
  template <typename T>
  __host__ __device__ __forceinline__ T operator()(const T& a, const T& b) const
  {
    return a + b;
  }
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

template <int THREADS, int ITEMS, typename D, int MINB>
std::string system_name()
{
  return std::string(GOCCCL_SYSTEM) + "-" + std::to_string(THREADS) + "x" + std::to_string(ITEMS) + "-" +
         DelayName<D>::get() + (MINB > 0 ? "-min" + std::to_string(MINB) : "");
}

// part reports whether --only asks for part ("scan" or "rbk") and type.
static bool part(const char* name, const char* type)
{
  const std::string& only = bench::state().only;
  if (only.empty()) return true;
  const std::string list = "," + only + ",";
  const auto has = [&](const char* x) { return list.find(std::string(",") + x + ",") != std::string::npos; };
  const bool any_part = has("scan") || has("rbk");
  const bool any_type = has("uint32") || has("float32") || has("uint64") || has("float64");
  return (!any_part || has(name)) && (!any_type || has(type));
}

// ---- data on the GPU ---------------------------------------------------------

__host__ __device__ __forceinline__ unsigned long long mix64(unsigned long long z)
{
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Keys: runs of mean length 7; or one run (SAME); or every key new (DISTINCT).
enum KeyMode { RUNS, SAME, DISTINCT };

__global__ void run_flags_kernel(unsigned* flags, long long n, unsigned long long seed, KeyMode mode)
{
  for (long long i = blockIdx.x * 1ll * blockDim.x + threadIdx.x; i < n; i += 1ll * gridDim.x * blockDim.x)
    flags[i] = mode == SAME       ? 0u
               : mode == DISTINCT ? 1u
                                  : unsigned(mix64(seed ^ (static_cast<unsigned long long>(i) * 0x9E3779B97F4A7C15ull)) % 7 == 0);
}

// NaNs in the values: none; at i % 100003 == 17 (EVERY); or at the last
// item of tiles 2 and 5 of every shape's tile (TILE_ENDS: the tile's
// inclusive prefix is a NaN, so the next tile looks back again with the
// operator).
enum NanMode { NO_NANS, EVERY, TILE_ENDS };

__device__ __forceinline__ bool nan_at(long long i, NanMode mode)
{
  if (mode == EVERY) return i % 100003 == 17;
  if (mode != TILE_ENDS) return false;
  for (long long t : {288ll * 14, 224ll * 14, 256ll * 18, 128ll * 13, 128ll * 6})
    if ((i + 1) % t == 0 && ((i + 1) / t == 2 || (i + 1) / t == 5)) return true;
  return false;
}

template <typename V>
__global__ void values_kernel(V* v, long long n, unsigned long long seed, NanMode nans, bool coarse)
{
  for (long long i = blockIdx.x * 1ll * blockDim.x + threadIdx.x; i < n; i += 1ll * gridDim.x * blockDim.x)
  {
    const unsigned long long r = mix64(seed ^ (static_cast<unsigned long long>(i) * 0xD1B54A32D192ED03ull));
    if constexpr (std::is_floating_point<V>::value)
      v[i] = nan_at(i, nans) ? V(NAN)
             : coarse      ? static_cast<V>(static_cast<double>(r >> 54) / 1024.0) // sums of < 2^14 of them are exact
                           : static_cast<V>(static_cast<double>(r >> 11) / 9007199254740992.0);
    else
      v[i] = static_cast<V>(r);
  }
}

// DeviceRotation holds bench::buffers(bytes) copies of one input made on
// the GPU, as bench::Rotation does of a host vector.
template <typename T>
class DeviceRotation
{
public:
  explicit DeviceRotation(long long n)
      : n_(n)
      , stride_((static_cast<size_t>(n) * sizeof(T) + 255) / 256 * 256)
      , count_(bench::buffers(static_cast<size_t>(n) * sizeof(T)))
      , buf_(stride_ / sizeof(T) * static_cast<size_t>(count_))
  {}
  // replicate copies copy 0 to the others.
  void replicate() const
  {
    for (int b = 1; b < count_; ++b)
      BENCH_CK(cudaMemcpy(get(b), get(0), static_cast<size_t>(n_) * sizeof(T), cudaMemcpyDeviceToDevice));
  }
  T* get(int i) const { return reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(buf_.get()) + stride_ * static_cast<size_t>(i % count_)); }
  long long n() const { return n_; }

private:
  long long n_;
  size_t stride_;
  int count_;
  bench::DeviceBuffer<T> buf_;
};

// make_keys fills keys with uint32 keys in runs of mean length 7.
inline void make_keys(DeviceRotation<unsigned>& keys, unsigned long long seed, KeyMode mode)
{
  const long long n = keys.n();
  bench::DeviceBuffer<unsigned> flags(static_cast<size_t>(n));
  run_flags_kernel<<<1024, 256>>>(flags.get(), n, seed, mode);
  BENCH_CK(cudaGetLastError());
  size_t tb = 0;
  BENCH_CK(cub::DeviceScan::InclusiveSum(nullptr, tb, flags.get(), keys.get(0), static_cast<int>(n)));
  bench::DeviceBuffer<unsigned char> temp(tb);
  BENCH_CK(cub::DeviceScan::InclusiveSum(temp.get(), tb, flags.get(), keys.get(0), static_cast<int>(n)));
  BENCH_CK(cudaDeviceSynchronize());
  keys.replicate();
}

template <typename V>
void make_values(DeviceRotation<V>& values, unsigned long long seed, NanMode nans, bool coarse)
{
  values_kernel<V><<<1024, 256>>>(values.get(0), values.n(), seed, nans, coarse);
  BENCH_CK(cudaGetLastError());
  BENCH_CK(cudaDeviceSynchronize());
  values.replicate();
}

// ---- comparisons -----------------------------------------------------------

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

// compare_kernel counts the items where got differs from want (see the file
// comment) in out[0], keeps the smallest such index in out[1], and adds a
// hash of every (index, bits of got) pair into out[2].
template <typename V>
__global__ void compare_kernel(const V* got, const V* want, long long n, unsigned long long salt, unsigned long long* out)
{
  unsigned long long bad = 0, first = ~0ull, hash = 0;
  for (long long i = blockIdx.x * 1ll * blockDim.x + threadIdx.x; i < n; i += 1ll * gridDim.x * blockDim.x)
  {
    const V a = got[i], b = want[i];
    bool ok;
    if constexpr (std::is_floating_point<V>::value)
      ok = isnan(b) ? bool(isnan(a)) : (!isnan(a) && fabs(double(a) - double(b)) <= 2e-5 * fabs(double(b)));
    else
      ok = a == b;
    if (!ok)
    {
      ++bad;
      first = first < static_cast<unsigned long long>(i) ? first : static_cast<unsigned long long>(i);
    }
    hash += mix64(bits_of(a) ^ mix64(static_cast<unsigned long long>(i) + salt));
  }
  if (bad)
  {
    atomicAdd(&out[0], bad);
    atomicMin(&out[1], first);
  }
  atomicAdd(&out[2], hash);
}

struct Compared
{
  unsigned long long bad = 0, first = ~0ull, hash = 0;
  void add(const Compared& o)
  {
    bad += o.bad;
    first = std::min(first, o.first);
    hash += o.hash;
  }
};

template <typename V>
Compared compare(const V* got, const V* want, long long n, unsigned long long salt = 0x9E3779B97F4A7C15ull)
{
  bench::DeviceBuffer<unsigned long long> out(3);
  const unsigned long long init[3] = {0, ~0ull, 0};
  BENCH_CK(cudaMemcpy(out.get(), init, sizeof init, cudaMemcpyHostToDevice));
  if (n > 0) compare_kernel<V><<<1024, 256>>>(got, want, n, salt, out.get());
  BENCH_CK(cudaGetLastError());
  const std::vector<unsigned long long> h = out.to_host();
  Compared c;
  c.bad = h[0], c.first = h[1], c.hash = h[2];
  return c;
}

static std::string hex(unsigned long long x)
{
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", x);
  return buf;
}

// Case is one input: keys, values (on the GPU) and what the rows note.
template <typename V>
struct Case
{
  long long n;
  DeviceRotation<unsigned> keys;
  DeviceRotation<V> values;
  const char* what;
  bool timed;

  Case(long long n, unsigned long long seed, const char* what, bool timed, KeyMode keys_mode = RUNS,
       NanMode nans = NO_NANS, bool coarse = false)
      : n(n)
      , keys(n)
      , values(n)
      , what(what)
      , timed(timed)
  {
    make_keys(keys, seed, keys_mode);
    make_values(values, seed + 1, nans, coarse);
  }
};

// report prints a checked case: a failure, a "# check" line or a timed row.
template <typename V, typename F>
void report(const Case<V>& c, const std::string& system, const char* alg, long long bytes, const std::string& bad,
            const Compared& cmp, F&& fn)
{
  const char* type = bench::type_name<V>();
  if (!bad.empty()) bench::fail(system.c_str(), alg, type, c.n, bytes, std::string(c.what) + ": " + bad);
  else if (!c.timed)
    std::printf("# check\t%s\t%s\t%s\t%lld\tok\t%s\thash %s\n", system.c_str(), alg, type, c.n, c.what, hex(cmp.hash).c_str());
  else bench::row(system.c_str(), alg, type, c.n, bench::time_us(fn), bytes, std::string(c.what) + ", hash " + hex(cmp.hash));
  std::fflush(stdout);
}

static std::string differs(const Compared& c, const char* what)
{
  if (!c.bad) return "";
  return std::to_string(c.bad) + " " + what + " differ from CUB's, the first at " + std::to_string(c.first);
}

// ---- scan by key -------------------------------------------------------------

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

template <int THREADS, int ITEMS, typename V, typename D, int MINB, bool INCLUSIVE>
void sbk_launch(long long tiles, const unsigned* k, const V* v, V* o, long long n, void* d_state, long long bytes,
                unsigned epoch)
{
  const unsigned grid = static_cast<unsigned>(tiles);
  if constexpr (MINB == 0)
    sbk_kernel<THREADS, ITEMS, V, D, INCLUSIVE><<<grid, THREADS>>>(k, v, o, n, d_state, bytes, epoch, V{});
  else
    sbk_kernel_min<THREADS, ITEMS, V, D, MINB, INCLUSIVE><<<grid, THREADS>>>(k, v, o, n, d_state, bytes, epoch, V{});
}

// Scans holds CUB's results of a case and our output buffer.
template <typename V>
struct Scans
{
  bench::DeviceBuffer<V> incl, excl, out;
  explicit Scans(long long n) : incl(static_cast<size_t>(n)), excl(static_cast<size_t>(n)), out(static_cast<size_t>(n)) {}
};

template <typename V>
void cub_scans(const Case<V>& c, Scans<V>& s)
{
  const long long bytes = c.n * static_cast<long long>(4 + 2 * sizeof(V));
  for (bool inclusive : {true, false})
  {
    V* dst = inclusive ? s.incl.get() : s.excl.get();
    size_t tb = 0;
    const auto call = [&](void* temp, int i) { // temp null: the size query
      size_t t = tb;
      if (inclusive)
        BENCH_CK(cub::DeviceScan::InclusiveSumByKey(temp, t, c.keys.get(i), c.values.get(i), dst, static_cast<int>(c.n),
                                                    EqU32()));
      else
        BENCH_CK(cub::DeviceScan::ExclusiveSumByKey(temp, t, c.keys.get(i), c.values.get(i), dst, static_cast<int>(c.n),
                                                    EqU32()));
      if (!temp) tb = t;
    };
    call(nullptr, 0);
    bench::DeviceBuffer<unsigned char> temp(tb);
    bench::poison(dst, static_cast<size_t>(c.n) * sizeof(V));
    call(temp.get(), 0);
    BENCH_CK(cudaGetLastError());
    BENCH_CK(cudaDeviceSynchronize());
    if (!c.timed) continue;
    const Compared cmp = compare(dst, dst, c.n);
    report(c, "cub", inclusive ? "inclusive_scan_by_key" : "exclusive_scan_by_key", bytes, "", cmp,
           [&](int i) { call(temp.get(), i); });
  }
}

template <int THREADS, int ITEMS, typename V, typename D, int MINB>
void sbk_shape(const Case<V>& c, Scans<V>& s)
{
  const long long n = c.n, tile = THREADS * ITEMS, tiles = (n + tile - 1) / tile;
  const long long bytes = n * static_cast<long long>(4 + 2 * sizeof(V));
  const std::string system = system_name<THREADS, ITEMS, D, MINB>();
  for (bool inclusive : {true, false})
  {
    // A region per scan, as the Go runtime keeps one per stream and shape.
    bench::EpochRegion states(tiles, bench::EpochRegion::bytes_for<cub::KeyValuePair<int, V>>(tiles));
    states.init_once(THREADS, [&](unsigned grid, void* d, long long b, long long t) {
      sbk_init_kernel<THREADS, ITEMS, V><<<grid, THREADS>>>(d, b, t);
    });
    auto fn = [&](int i) {
      const unsigned epoch = states.next();
      if (inclusive)
        sbk_launch<THREADS, ITEMS, V, D, MINB, true>(tiles, c.keys.get(i), c.values.get(i), s.out.get(), n, states.ptr(),
                                                     states.bytes(), epoch);
      else
        sbk_launch<THREADS, ITEMS, V, D, MINB, false>(tiles, c.keys.get(i), c.values.get(i), s.out.get(), n,
                                                      states.ptr(), states.bytes(), epoch);
    };
    s.out.poison();
    fn(0);
    BENCH_CK(cudaGetLastError());
    BENCH_CK(cudaDeviceSynchronize());
    const Compared cmp = compare(s.out.get(), (inclusive ? s.incl : s.excl).get(), n);
    report(c, system, inclusive ? "inclusive_scan_by_key" : "exclusive_scan_by_key", bytes, differs(cmp, "items"), cmp, fn);
  }
}

template <typename V>
void sbk_case(const Case<V>& c)
{
  Scans<V> s(c.n);
  cub_scans(c, s);
  if constexpr (sizeof(V) <= 4)
  {
    sbk_shape<288, 14, V, gocccl::DefaultDelay, 0>(c, s);
    sbk_shape<288, 14, V, gocccl::DefaultDelay, 5>(c, s); // the fold's 40 registers' occupancy, forced on base
  }
  else
  {
    using Fixed = gocccl::FixedDelay<556, 1195>;
    sbk_shape<224, 14, V, Fixed, 4>(c, s);
    sbk_shape<224, 14, V, Fixed, 5>(c, s);
  }
}

// ---- reduce by key -----------------------------------------------------------

template <int THREADS, int ITEMS, typename V>
__global__ void __launch_bounds__(THREADS) rbk_init_kernel(void* d_state, long long bytes, long long tiles)
{
  gocccl::reduce_by_key_init<THREADS, ITEMS, unsigned, V, EqU32, Sum<V>>(d_state, bytes, tiles);
}
template <int THREADS, int ITEMS, typename V>
__global__ void __launch_bounds__(THREADS) rbk_kernel(const unsigned* k, const V* v, unsigned* u, V* a, int64_t* runs,
                                                      long long n, void* d_state, long long bytes, unsigned epoch)
{
  gocccl::reduce_by_key<THREADS, ITEMS, unsigned, V, EqU32, Sum<V>>(k, v, u, a, runs, n, d_state, bytes, epoch);
}
template <int THREADS, int ITEMS, typename V, int MINB>
__global__ void __launch_bounds__(THREADS, MINB) rbk_kernel_min(const unsigned* k, const V* v, unsigned* u, V* a,
                                                                int64_t* runs, long long n, void* d_state,
                                                                long long bytes, unsigned epoch)
{
  gocccl::reduce_by_key<THREADS, ITEMS, unsigned, V, EqU32, Sum<V>>(k, v, u, a, runs, n, d_state, bytes, epoch);
}

// Runs holds CUB's ReduceByKey results of a case and our outputs.
template <typename V>
struct Runs
{
  bench::DeviceBuffer<unsigned> cub_unique, unique;
  bench::DeviceBuffer<V> cub_aggs, aggs;
  bench::DeviceBuffer<int> cub_count;
  bench::DeviceBuffer<int64_t> count;
  long long runs = 0;
  explicit Runs(long long n)
      : cub_unique(static_cast<size_t>(n)), unique(static_cast<size_t>(n)), cub_aggs(static_cast<size_t>(n)),
        aggs(static_cast<size_t>(n)), cub_count(1), count(1)
  {}
  long long bytes(long long n) const
  {
    return n * static_cast<long long>(4 + sizeof(V)) + runs * static_cast<long long>(4 + sizeof(V));
  }
};

template <typename V>
void cub_runs(const Case<V>& c, Runs<V>& r)
{
  size_t tb = 0;
  const auto call = [&](void* temp, int i) { // temp null: the size query
    size_t t = tb;
    BENCH_CK(cub::DeviceReduce::ReduceByKey(temp, t, c.keys.get(i), r.cub_unique.get(), c.values.get(i), r.cub_aggs.get(),
                                            r.cub_count.get(), PlainSum(), static_cast<int>(c.n)));
    if (!temp) tb = t;
  };
  call(nullptr, 0);
  bench::DeviceBuffer<unsigned char> temp(tb);
  r.cub_unique.poison(), r.cub_aggs.poison(), r.cub_count.poison();
  call(temp.get(), 0);
  BENCH_CK(cudaGetLastError());
  BENCH_CK(cudaDeviceSynchronize());
  r.runs = r.cub_count.to_host()[0];
  if (!c.timed) return;
  Compared cmp = compare(r.cub_unique.get(), r.cub_unique.get(), r.runs, 1);
  cmp.add(compare(r.cub_aggs.get(), r.cub_aggs.get(), r.runs, 2));
  report(c, "cub", "reduce_by_key", r.bytes(c.n), "", cmp, [&](int i) { call(temp.get(), i); });
}

template <int THREADS, int ITEMS, typename V, int MINB>
void rbk_shape(const Case<V>& c, Runs<V>& r)
{
  const long long n = c.n, tile = THREADS * ITEMS, tiles = (n + tile - 1) / tile;
  const std::string system = system_name<THREADS, ITEMS, gocccl::DefaultDelay, MINB>();
  bench::EpochRegion states(tiles, bench::EpochRegion::bytes_for<gocccl::detail::RunPair<V>>(tiles));
  states.init_once(THREADS, [&](unsigned grid, void* d, long long b, long long t) {
    rbk_init_kernel<THREADS, ITEMS, V><<<grid, THREADS>>>(d, b, t);
  });
  auto fn = [&](int i) {
    const unsigned epoch = states.next();
    const unsigned grid = static_cast<unsigned>(std::max(1ll, tiles));
    if constexpr (MINB == 0)
      rbk_kernel<THREADS, ITEMS, V><<<grid, THREADS>>>(c.keys.get(i), c.values.get(i), r.unique.get(), r.aggs.get(),
                                                       r.count.get(), n, states.ptr(), states.bytes(), epoch);
    else
      rbk_kernel_min<THREADS, ITEMS, V, MINB><<<grid, THREADS>>>(c.keys.get(i), c.values.get(i), r.unique.get(),
                                                                 r.aggs.get(), r.count.get(), n, states.ptr(),
                                                                 states.bytes(), epoch);
  };
  r.unique.poison(), r.aggs.poison(), r.count.poison();
  fn(0);
  BENCH_CK(cudaGetLastError());
  BENCH_CK(cudaDeviceSynchronize());
  const long long got = r.count.to_host()[0];
  std::string bad;
  Compared cmp;
  if (got != r.runs) bad = "run count " + std::to_string(got) + ", CUB's " + std::to_string(r.runs);
  else
  {
    cmp = compare(r.unique.get(), r.cub_unique.get(), r.runs, 1);
    bad = differs(cmp, "unique keys");
    const Compared aggs = compare(r.aggs.get(), r.cub_aggs.get(), r.runs, 2);
    if (bad.empty()) bad = differs(aggs, "aggregates");
    cmp.add(aggs);
  }
  report(c, system, "reduce_by_key", r.bytes(n), bad, cmp, fn);
}

template <typename V>
void rbk_case(const Case<V>& c)
{
  Runs<V> r(c.n);
  cub_runs(c, r);
  if constexpr (sizeof(V) <= 4)
  {
    rbk_shape<256, 18, V, 0>(c, r);
    rbk_shape<256, 18, V, 3>(c, r);
  }
  else
  {
    rbk_shape<128, 13, V, 0>(c, r);
    rbk_shape<128, 13, V, 6>(c, r);
  }
  rbk_shape<128, 6, V, 0>(c, r);
}

// ---- driver ------------------------------------------------------------------

template <typename V>
void run_case(const Case<V>& c)
{
  const char* type = bench::type_name<V>();
  if (part("scan", type)) sbk_case(c);
  if (part("rbk", type)) rbk_case(c);
}

template <typename V>
void checks(unsigned long long seed)
{
  const char* type = bench::type_name<V>();
  if (!part("scan", type) && !part("rbk", type)) return;
  // Tile edges of every shape (scan 288 x 14 / 224 x 14, reduce 256 x 18 /
  // 128 x 13 and 128 x 6), one tile, tiny inputs.
  const long long a = sizeof(V) <= 4 ? 288 * 14 : 224 * 14, b = sizeof(V) <= 4 ? 256 * 18 : 128 * 13;
  for (long long n : {1ll, 2ll, 1000ll, a - 1, a, a + 1, b - 1, b, b + 1, 768ll, 769ll, 3 * a + 17, 3 * b + 17, 1000003ll})
    run_case(Case<V>(n, seed + static_cast<unsigned long long>(n), "check", false));
  // One run over several tiles (floats in 1/1024ths: exact sums, whatever
  // the association); every item a run (each tile heads TILE runs).
  run_case(Case<V>(10003, seed, "check one run", false, SAME, NO_NANS, true));
  run_case(Case<V>(100003, seed, "check distinct keys", false, DISTINCT));
  if constexpr (std::is_floating_point<V>::value)
  {
    run_case(Case<V>(1000003, seed, "check with NaNs", false, RUNS, EVERY));
    run_case(Case<V>(100003, seed, "check with NaNs at tile ends", false, RUNS, TILE_ENDS));
    run_case(Case<V>(100003, seed, "check with NaNs in one run", false, SAME, EVERY)); // 17 on: every later item NaN
  }
}

template <typename V>
void timed(long long n, unsigned long long seed)
{
  const char* type = bench::type_name<V>();
  if (!part("scan", type) && !part("rbk", type)) return;
  run_case(Case<V>(n, seed, "uint32 keys in runs of mean length 7", true));
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "bykey_tune");
  std::printf("# CUB_VERSION %d, experiments%s, system %s\n", CUB_VERSION, variant().c_str(), GOCCCL_SYSTEM);
  checks<uint32_t>(3);
  checks<float>(4);
  checks<uint64_t>(5);
  checks<double>(6);
  for (long long n : bench::sizes())
  {
    timed<uint32_t>(n, 13);
    timed<float>(n, 14);
    timed<uint64_t>(n, 15);
    timed<double>(n, 16);
  }
  return bench::finish();
}
