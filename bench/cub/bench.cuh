// bench.cuh: the shared harness of the per-algorithm C++ benchmarks in
// bench/cub (one .cu file per algorithm family, each with its own main).
//
// Every file prints TSV rows on standard output, the format of bench/gpubench
// and bench/py that bench/report reads:
//
//   system  algorithm  type  n  median_us  bytes_moved  [note]
//
// median_us is "-" for a skipped or failed case, whose note says why; lines
// starting with '#' are comments. bytes_moved is the minimal traffic: every
// input read once, every output written once.
//
// What the harness does for every case: inputs are rotated over enough
// copies to exceed the L2 several times (Rotation), outputs are poisoned
// (poison) before the run whose results are checked, that check comes before
// any timing, every CUDA return code is checked (BENCH_CK: a CUDA error ends
// the program with exit status 2), and time_us reports the median of at least
// 20 event-timed runs after warm-up, all on the legacy default stream.
//
// Arguments every program takes: --runs R (default and minimum 20),
// --sizes 10,16,20,24,28 (log2 of n), --seed S, --only A,B (run only the
// parts named, for a program whose main asks wants(part); all by default).
//
// Compiles with CUDA 11.8 (CUB 1.17) and CUDA 13 (CCCL 3).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace bench
{

inline void check_cuda(cudaError_t err, const char* what, const char* file, int line)
{
  if (err != cudaSuccess)
  {
    std::fflush(stdout);
    std::fprintf(stderr, "%s:%d: CUDA error %s (%s) in %s\n", file, line, cudaGetErrorName(err),
                 cudaGetErrorString(err), what);
    std::exit(2);
  }
}

#define BENCH_CK(call) ::bench::check_cuda((call), #call, __FILE__, __LINE__)

struct State
{
  int runs = 20;
  int warmup = 3;
  std::vector<int> log2_sizes{10, 16, 20, 24, 28};
  uint64_t seed = 0x5eed;
  std::string only; // comma-separated parts to run; empty: all
  int sms = 0;
  int l2_bytes = 0;
  int failures = 0;
  // host_us is the median wall time of the calls the last time_us timed,
  // their enqueue alone; NaN once row has reported it.
  double host_us = NAN;
};

// host_call_max is the largest n whose host call time row prints
// (gpubench's hostCallMax): above it the GPU's work dwarfs any call.
constexpr long long host_call_max = 1ll << 20;

inline State& state()
{
  static State s;
  return s;
}

// Element type names, as Go and NumPy spell them.
template <typename T> const char* type_name();
template <> inline const char* type_name<int32_t>() { return "int32"; }
template <> inline const char* type_name<uint32_t>() { return "uint32"; }
template <> inline const char* type_name<int64_t>() { return "int64"; }
template <> inline const char* type_name<uint64_t>() { return "uint64"; }
template <> inline const char* type_name<float>() { return "float32"; }
template <> inline const char* type_name<double>() { return "float64"; }

// wants reports whether --only names part (every part when --only is absent).
inline bool wants(const char* part)
{
  const std::string& only = state().only;
  if (only.empty()) return true;
  const std::string p = std::string(",") + part + ",";
  return (std::string(",") + only + ",").find(p) != std::string::npos;
}

// init parses the common arguments, reads the device and prints the header.
inline void init(int argc, char** argv, const char* program)
{
  State& s = state();
  for (int i = 1; i < argc; ++i)
  {
    if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) s.runs = std::max(20, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) s.seed = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) s.only = argv[++i];
    else if (!std::strcmp(argv[i], "--sizes") && i + 1 < argc)
    {
      s.log2_sizes.clear();
      for (char* p = argv[++i]; *p;)
      {
        char* end = nullptr;
        const long k = std::strtol(p, &end, 10);
        if (end == p || k < 0 || k > 31)
        {
          std::fprintf(stderr, "%s: bad --sizes %s\n", program, argv[i]);
          std::exit(2);
        }
        s.log2_sizes.push_back(static_cast<int>(k));
        p = *end == ',' ? end + 1 : end;
      }
    }
    else
    {
      std::fprintf(stderr, "usage: %s [--runs R] [--sizes 10,16,...] [--seed S] [--only A,B]\n", program);
      std::exit(2);
    }
  }
  int dev = 0;
  BENCH_CK(cudaGetDevice(&dev));
  cudaDeviceProp prop;
  BENCH_CK(cudaGetDeviceProperties(&prop, dev));
  BENCH_CK(cudaDeviceGetAttribute(&s.sms, cudaDevAttrMultiProcessorCount, dev));
  BENCH_CK(cudaDeviceGetAttribute(&s.l2_bytes, cudaDevAttrL2CacheSize, dev));
  int runtime = 0, driver = 0;
  BENCH_CK(cudaRuntimeGetVersion(&runtime));
  BENCH_CK(cudaDriverGetVersion(&driver));
  std::printf("# %s: %s sm_%d%d, %d SMs, L2 %d MiB; CUDA runtime %d, driver %d; median of %d runs\n", program,
              prop.name, prop.major, prop.minor, s.sms, s.l2_bytes >> 20, runtime, driver, s.runs);
  std::printf("system\talgorithm\ttype\tn\tmedian_us\tbytes_moved\tnote\n");
  std::fflush(stdout);
}

// sizes returns the n of every case, ascending as given.
inline std::vector<long long> sizes()
{
  std::vector<long long> v;
  for (int k : state().log2_sizes) v.push_back(1ll << k);
  return v;
}

// buffers is how many copies of an input of this size a rotation holds:
// enough for four L2s, at least two below that, at most 32.
inline int buffers(size_t bytes)
{
  const size_t want = 4 * static_cast<size_t>(std::max(state().l2_bytes, 1 << 20));
  if (bytes >= want) return 1;
  const size_t n = (want + bytes - 1) / std::max<size_t>(bytes, 1);
  return static_cast<int>(std::min<size_t>(32, std::max<size_t>(2, n)));
}

// row prints one measurement; a NaN time prints as a skipped row.
inline void row(const char* system, const char* algorithm, const char* type, long long n, double us,
                long long bytes, const std::string& note = "")
{
  std::string clean = note;
  for (char& c : clean)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  if (std::isnan(us)) std::printf("%s\t%s\t%s\t%lld\t-\t%lld", system, algorithm, type, n, bytes);
  else std::printf("%s\t%s\t%s\t%lld\t%.2f\t%lld", system, algorithm, type, n, us, bytes);
  if (!clean.empty()) std::printf("\t%s", clean.c_str());
  std::printf("\n");
  const double host = state().host_us;
  state().host_us = NAN;
  if (!std::isnan(us) && !std::isnan(host) && n <= host_call_max && !std::strchr(system, ':'))
    std::printf("%s:host_call\t%s\t%s\t%lld\t%.2f\t%lld\twall clock of the call alone, median of the timed runs\n",
                system, algorithm, type, n, host, bytes);
  std::fflush(stdout);
}

// skip prints a skipped row.
inline void skip(const char* system, const char* algorithm, const char* type, long long n, long long bytes,
                 const std::string& reason)
{
  row(system, algorithm, type, n, NAN, bytes, reason);
}

// fail prints a failed row and makes finish() return 1.
inline void fail(const char* system, const char* algorithm, const char* type, long long n, long long bytes,
                 const std::string& what)
{
  ++state().failures;
  row(system, algorithm, type, n, NAN, bytes, "FAILED: " + what);
}

// finish returns the program's exit status: 1 if any check failed.
inline int finish()
{
  BENCH_CK(cudaDeviceSynchronize());
  if (state().failures) std::fprintf(stderr, "%d check(s) FAILED\n", state().failures);
  return state().failures ? 1 : 0;
}

// time_us returns the median of state().runs event-timed calls of fn(i),
// after state().warmup untimed ones; fn enqueues run i on the default stream.
// It also keeps the median wall time of the fn calls themselves in
// state().host_us, which the next row prints as a "SYSTEM:host_call" row
// for n up to host_call_max, as gpubench does for the Go calls.
template <typename F>
double time_us(F&& fn)
{
  const State& s = state();
  cudaEvent_t start, stop;
  BENCH_CK(cudaEventCreate(&start));
  BENCH_CK(cudaEventCreate(&stop));
  for (int i = 0; i < s.warmup; ++i) fn(1 + i);
  BENCH_CK(cudaGetLastError());
  BENCH_CK(cudaDeviceSynchronize());
  std::vector<float> ms(static_cast<size_t>(s.runs));
  std::vector<double> host(static_cast<size_t>(s.runs));
  for (int i = 0; i < s.runs; ++i)
  {
    BENCH_CK(cudaEventRecord(start, 0));
    const auto t0 = std::chrono::steady_clock::now();
    fn(1 + s.warmup + i);
    host[static_cast<size_t>(i)] = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    BENCH_CK(cudaEventRecord(stop, 0));
    BENCH_CK(cudaEventSynchronize(stop));
    BENCH_CK(cudaGetLastError());
    BENCH_CK(cudaEventElapsedTime(&ms[static_cast<size_t>(i)], start, stop));
  }
  BENCH_CK(cudaEventDestroy(start));
  BENCH_CK(cudaEventDestroy(stop));
  std::sort(ms.begin(), ms.end());
  std::sort(host.begin(), host.end());
  const size_t m = ms.size();
  state().host_us = m % 2 ? host[m / 2] : 0.5 * (host[m / 2 - 1] + host[m / 2]);
  return 1000.0 * (m % 2 ? ms[m / 2] : 0.5 * (ms[m / 2 - 1] + ms[m / 2]));
}

inline uint64_t splitmix64(uint64_t& s)
{
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// random_items returns n random items: integers over their whole range,
// floating-point values in [0, 1). salt separates the cases of one run.
template <typename T>
std::vector<T> random_items(long long n, uint64_t salt)
{
  std::vector<T> v(static_cast<size_t>(n));
  uint64_t s = state().seed ^ (salt * 0x9E3779B97F4A7C15ull) ^ static_cast<uint64_t>(n);
  for (auto& x : v)
  {
    const uint64_t r = splitmix64(s);
    if constexpr (std::is_floating_point<T>::value)
      x = static_cast<T>(static_cast<double>(r >> 11) / 9007199254740992.0);
    else
      x = static_cast<T>(r);
  }
  return v;
}

// keys_in_runs returns n uint32 keys in runs of random lengths, mean 7 (a
// new key follows each item with probability 1/7): the keys of the by-key
// benchmarks. salt separates the cases of one run.
inline std::vector<unsigned> keys_in_runs(long long n, uint64_t salt)
{
  std::vector<unsigned> keys(static_cast<size_t>(n));
  uint64_t s = state().seed ^ (salt * 0x2545F4914F6CDD1Dull) ^ static_cast<uint64_t>(n);
  unsigned key = 0;
  for (auto& k : keys)
  {
    if (splitmix64(s) % 7 == 0) ++key;
    k = key;
  }
  return keys;
}

// poison fills device memory with 0xAB bytes, a pattern no correct run leaves.
inline void poison(void* d, size_t bytes)
{
  BENCH_CK(cudaMemset(d, 0xAB, bytes));
  BENCH_CK(cudaDeviceSynchronize());
}

// Rotation holds buffers(bytes) copies of one input, each 256-byte aligned.
template <typename T>
class Rotation
{
public:
  explicit Rotation(const std::vector<T>& host)
      : n_(static_cast<long long>(host.size()))
  {
    const size_t bytes = host.size() * sizeof(T);
    stride_ = (bytes + 255) / 256 * 256;
    count_ = buffers(bytes);
    BENCH_CK(cudaMalloc(&base_, std::max<size_t>(stride_, 256) * static_cast<size_t>(count_)));
    BENCH_CK(cudaMemcpy(base_, host.data(), bytes, cudaMemcpyHostToDevice));
    for (int b = 1; b < count_; ++b)
      BENCH_CK(cudaMemcpy(base_ + stride_ * b, base_, bytes, cudaMemcpyDeviceToDevice));
  }
  ~Rotation() { BENCH_CK(cudaFree(base_)); }
  Rotation(const Rotation&) = delete;
  Rotation& operator=(const Rotation&) = delete;

  // get returns copy i % count().
  T* get(int i) const { return reinterpret_cast<T*>(base_ + stride_ * static_cast<size_t>(i % count_)); }
  int count() const { return count_; }
  long long n() const { return n_; }
  size_t bytes() const { return static_cast<size_t>(n_) * sizeof(T); }

private:
  long long n_ = 0;
  size_t stride_ = 0;
  int count_ = 0;
  unsigned char* base_ = nullptr;
};

// DeviceBuffer is one plain allocation.
template <typename T>
class DeviceBuffer
{
public:
  explicit DeviceBuffer(size_t n) : n_(n) { BENCH_CK(cudaMalloc(&p_, std::max<size_t>(n, 1) * sizeof(T))); }
  ~DeviceBuffer() { BENCH_CK(cudaFree(p_)); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  T* get() const { return p_; }
  size_t size() const { return n_; }
  void poison() const { bench::poison(p_, n_ * sizeof(T)); }
  std::vector<T> to_host() const
  {
    std::vector<T> h(n_);
    BENCH_CK(cudaMemcpy(h.data(), p_, n_ * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }

private:
  T* p_ = nullptr;
  size_t n_ = 0;
};

// copy_row times cudaMemcpyAsync device to device of one rotation and checks
// one copy first; it prints the "cuda copy" row (bytes read + written).
template <typename T>
void copy_row(const Rotation<T>& in, const std::vector<T>& host)
{
  const char* type = type_name<T>();
  const long long n = in.n();
  const long long bytes = 2 * static_cast<long long>(in.bytes());
  DeviceBuffer<T> dst(static_cast<size_t>(n));
  dst.poison();
  BENCH_CK(cudaMemcpyAsync(dst.get(), in.get(0), in.bytes(), cudaMemcpyDeviceToDevice, 0));
  BENCH_CK(cudaDeviceSynchronize());
  if (std::memcmp(dst.to_host().data(), host.data(), in.bytes()) != 0)
  {
    fail("cuda", "copy", type, n, bytes, "copy differs from its source");
    return;
  }
  const double us =
    time_us([&](int i) { BENCH_CK(cudaMemcpyAsync(dst.get(), in.get(i), in.bytes(), cudaMemcpyDeviceToDevice, 0)); });
  row("cuda", "copy", type, n, us, bytes, "cudaMemcpyAsync");
}

} // namespace bench
