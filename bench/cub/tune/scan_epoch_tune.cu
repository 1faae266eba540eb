// scan_epoch_tune.cu: inclusive sums in one launch over epoch-tagged tile
// states (kernels/include/gocccl/scan_epoch.cuh, epoch_tile_state.cuh)
// beside today's two-launch scan and CUB, in one binary, plus a stress check
// of the epochs. Rows in bench.cuh's format, for uint32 and float32:
//
//   cub                 scan  cub::DeviceScan::InclusiveSum
//   gocccl-kernels      scan  today's scan.cuh: scan_init + inclusive_scan as
//                             bench/cub/scan.cu dispatches them (the Go
//                             runtime's: the sweep alone for one tile), sm_90
//                             policy 128 x 24, FixedDelay<648, 1245>
//   gocccl-epoch        scan  epoch_inclusive_scan at the same policy: one
//                             launch per call; the region is allocated once
//                             per size and initialized once (by the first,
//                             checked call); the epoch goes up by one a call
//   gocccl-epoch+init   scan  diagnostic: the same kernel with the state init
//                             before every call (two launches, as today), to
//                             tell the epoch kernel's own cost from the launch
//                             it saves
//
// Checks before any timing: every variant's output against a host scan
// (integers exactly, floats relative to the sum of magnitudes); the epoch
// rows check three calls in a row (the first initializes, the next two run
// on the states the earlier ones left). Then the stress check (--only
// stress; by default after the rows): 400 uint32 calls and 150 float32
// calls of the epoch scan (inclusive, every fourth exclusive) on one region,
// enqueued back to back in batches of 16, each into its own poisoned output,
// all checked after the batch. n varies in phases of 100 calls: log-uniform
// random up to 1365 tiles (4,193,280 items, more than one wave), linearly
// growing and shrinking runs (so stale states of a longer call lie both
// inside and beyond the current tile range), tile and 32-tile window
// boundaries. Every call scans the input from another random offset, so no
// stale state ever holds the right value. Events between batches, each
// forcing the host's one-time init: the region grown by reallocation (it
// starts at 256 tiles), the epoch counter set a third of the calls before
// EPOCH_TILE_MAX (so it wraps), the region overwritten with random bytes
// (foreign use). About every 50 calls the region is also overwritten,
// without an init, with words of epochs already issued (PARTIAL and
// INCLUSIVE, random values): a legal state the epochs must see through.
// Finally a control: 16 calls of 200 tiles, each after words carrying its
// own epoch were injected (a state the host protocol forbids): they must
// come out wrong, which shows that the check would see a stale state taken
// for a current one.
//
// Prediction (H200, this binary, before it ever ran; reasoning in the
// report of branch epoch-tile-state): event-timed runs start from an idle
// GPU, so each launch's host cost (3.2-4.7 us on these machines, NOTES
// "Launch cost") is on the clock, while the init kernel itself (a few
// blocks, ~2 us) hides behind the sweep's launch. Dropping it saves one
// launch's host cost, about 3.5 us, at every multi-tile size:
//   n      today (gocccl-kernels)   gocccl-epoch        gocccl-epoch+init
//   2^10   6.5-10.5 (one tile)      same (one tile)     same
//   2^16   12.1                     8.5  (0.70x)        12.1 +- 0.5
//   2^20   14.7-14.9                11.2 (0.76x)        14.8 +- 0.5
//   2^24   55.7                     52.3 (0.94x)        55.7 +- 1%
//   2^28   689 (u32) / 687 (f32)    same +- 1%          same +- 1%
// So against CUB (13.9 / 16.6-17.8 / 58 / 686 us): ~0.62x at 2^16, ~0.65x
// at 2^20, ~0.90x at 2^24, 1.00x at 2^28. The epoch kernel's own cost equals
// today's sweep (same registers: 64 uint32, 72 float32 with nvcc 13; same
// shared memory), so gocccl-epoch+init should match gocccl-kernels; if it
// does not, the epoch checks in the look-back cost something.
//
// Also prints each kernel's registers (cudaFuncGetAttributes) as comments.
//
// Build and run on the GPU machine, from the repository root:
//   nvcc -std=c++17 -O3 -arch=sm_90 -Ikernels/include -Ibench/cub \
//     -o /tmp/scan_epoch bench/cub/tune/scan_epoch_tune.cu
//   /tmp/scan_epoch --sizes 10,16,20,24,28
// (--only rows or --only stress runs one part.)
#include "bench.cuh"

#include <gocccl/scan.cuh>
#include <gocccl/scan_epoch.cuh>

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

// The runtime's sm_90 policy for 4-byte items (internal/algo/scan.go).
constexpr int kThreads = 128, kItems = 24, kTile = kThreads * kItems;
using ScanDelay = gocccl::FixedDelay<648, 1245>;
constexpr int kInitThreads = 256;

#define TUNE_SCAN(NAME, T, OP)                                                                                        \
  extern "C" __global__ void __launch_bounds__(kThreads) NAME##_init(void* d_state, long long bytes, long long tiles) \
  {                                                                                                                   \
    gocccl::scan_init<kThreads, kItems, T, OP>(d_state, bytes, tiles);                                               \
  }                                                                                                                   \
  extern "C" __global__ void __launch_bounds__(kThreads) NAME##_incl(                                                 \
    const T* d_in, T* d_out, long long n, void* d_state, long long bytes, T init, const T* d_init, bool has_init)      \
  {                                                                                                                   \
    gocccl::inclusive_scan<kThreads, kItems, T, OP>(d_in, d_out, n, d_state, bytes, init, d_init, has_init,          \
                                                    ScanDelay());                                                   \
  }                                                                                                                   \
  extern "C" __global__ void __launch_bounds__(kInitThreads) NAME##_epoch_init(void* d_state, long long bytes)        \
  {                                                                                                                   \
    gocccl::epoch_tile_state_init(d_state, bytes);                                                                   \
  }                                                                                                                   \
  extern "C" __global__ void __launch_bounds__(kThreads) NAME##_epoch_incl(const T* d_in, T* d_out, long long n,      \
                                                                          void* d_state, long long bytes,             \
                                                                          unsigned epoch, T init, const T* d_init,    \
                                                                          bool has_init)                              \
  {                                                                                                                   \
    gocccl::epoch_inclusive_scan<kThreads, kItems, T, OP>(d_in, d_out, n, d_state, bytes, epoch, init, d_init,       \
                                                          has_init, ScanDelay());                                   \
  }                                                                                                                   \
  extern "C" __global__ void __launch_bounds__(kThreads) NAME##_epoch_excl(const T* d_in, T* d_out, long long n,      \
                                                                          void* d_state, long long bytes,             \
                                                                          unsigned epoch, T init, const T* d_init,    \
                                                                          bool has_init)                              \
  {                                                                                                                   \
    gocccl::epoch_exclusive_scan<kThreads, kItems, T, OP>(d_in, d_out, n, d_state, bytes, epoch, init, d_init,       \
                                                          has_init, ScanDelay());                                   \
  }

TUNE_SCAN(scan_u32, unsigned, SumU32)
TUNE_SCAN(scan_f32, float, SumF32)

static long long tiles_of(long long n) { return (n + kTile - 1) / kTile; }

template <typename T>
using SweepFn = void (*)(const T*, T*, long long, void*, long long, T, const T*, bool);
template <typename T>
using EpochSweepFn = void (*)(const T*, T*, long long, void*, long long, unsigned, T, const T*, bool);

// Today's scan, dispatched as the Go runtime does (runtime/scan.go).
template <typename T>
struct Today
{
  void (*init)(void*, long long, long long);
  SweepFn<T> incl;

  static size_t state_bytes(long long n)
  {
    size_t bytes = 0;
    BENCH_CK(cub::ScanTileState<T>::AllocationSize(static_cast<int>(tiles_of(n)), bytes));
    return bytes;
  }
  void run(const T* d_in, T* d_out, long long n, void* d_state, size_t bytes) const
  {
    const long long t = tiles_of(n);
    if (t > 1) init<<<static_cast<unsigned>((t + kThreads - 1) / kThreads), kThreads>>>(d_state, bytes, t);
    incl<<<static_cast<unsigned>(t), kThreads>>>(d_in, d_out, n, t > 1 ? d_state : nullptr, bytes, T{}, nullptr,
                                                 false);
  }
};

// EpochRegion is the host side of one region of epoch tile states: what the
// Go runtime would keep per stream scratch (scan_epoch.cuh's rollout note).
struct EpochRegion
{
  unsigned char* d = nullptr;
  size_t bytes = 0;
  unsigned epoch = 0; // last epoch issued since the last init
  bool clean = false; // initialized, and written only by epoch sweeps since
  int inits = 0;
  void (*init_kernel)(void*, long long) = nullptr;

  EpochRegion(size_t b, void (*k)(void*, long long)) : bytes(b), init_kernel(k) { BENCH_CK(cudaMalloc(&d, bytes)); }
  ~EpochRegion() { BENCH_CK(cudaFree(d)); }
  EpochRegion(const EpochRegion&) = delete;
  EpochRegion& operator=(const EpochRegion&) = delete;

  long long capacity() const { return gocccl::EpochTileState<unsigned>::Capacity(static_cast<long long>(bytes)); }

  // grow replaces the memory by a larger allocation (its contents are
  // whatever the allocator hands out): the next call initializes.
  void grow(size_t b)
  {
    BENCH_CK(cudaDeviceSynchronize());
    BENCH_CK(cudaFree(d));
    bytes = b;
    BENCH_CK(cudaMalloc(&d, bytes));
    clean = false;
  }

  // next returns the epoch of a call over `tiles` tiles, enqueuing the
  // one-time init first when the region needs it.
  unsigned next(long long tiles)
  {
    if (tiles > capacity())
    {
      std::fprintf(stderr, "scan_epoch: region of %zu bytes holds %lld tiles, call needs %lld\n", bytes, capacity(),
                   tiles);
      std::exit(2);
    }
    if (!clean || epoch >= gocccl::EPOCH_TILE_MAX)
    {
      const long long words = static_cast<long long>(bytes / 8);
      const long long blocks = std::min<long long>((words + kInitThreads - 1) / kInitThreads, 4096);
      init_kernel<<<static_cast<unsigned>(blocks), kInitThreads>>>(d, static_cast<long long>(bytes));
      epoch = 0;
      clean = true;
      ++inits;
    }
    return ++epoch;
  }
};

template <typename T>
struct Epoch
{
  void (*init)(void*, long long);
  EpochSweepFn<T> incl;
  EpochSweepFn<T> excl;

  // One call: the sweep alone for one tile (no state, no epoch), else the
  // region's epoch (after its init when needed) and the sweep.
  void run(bool inclusive, const T* d_in, T* d_out, long long n, EpochRegion& r) const
  {
    const long long t = tiles_of(n);
    const unsigned epoch = t > 1 ? r.next(t) : 0;
    const EpochSweepFn<T> sweep = inclusive ? incl : excl;
    sweep<<<static_cast<unsigned>(t), kThreads>>>(
      d_in, d_out, n, t > 1 ? r.d : nullptr, static_cast<long long>(r.bytes), epoch, T{}, nullptr, false);
  }
};

// check_scan returns "" when got is the inclusive prefix sum of in.
template <typename T>
std::string check_scan(const std::vector<T>& in, const std::vector<T>& got)
{
  T acc{};
  double exact = 0, mag = 0;
  for (size_t i = 0; i < in.size(); ++i)
  {
    acc = acc + in[i];
    exact += double(in[i]);
    mag += std::fabs(double(in[i]));
    const bool bad = std::is_integral<T>::value ? got[i] != acc
                                                : !(std::fabs(double(got[i]) - exact) <= 1e-5 * mag + 1e-6);
    if (bad)
    {
      char buf[160];
      std::snprintf(buf, sizeof buf, "element %zu is %.9g, want %.9g", i, double(got[i]),
                    std::is_integral<T>::value ? double(acc) : exact);
      return buf;
    }
  }
  return "";
}

// measure checks `checked` consecutive calls fn(0), fn(1), ... (each on a
// poisoned output), then times fn and prints the row.
template <typename T, typename F>
void measure(const char* system, const char* type, long long n, long long bytes, const bench::DeviceBuffer<T>& out,
             const std::vector<T>& host, int checked, F&& fn, const char* note)
{
  for (int c = 0; c < checked; ++c)
  {
    out.poison();
    fn(c);
    BENCH_CK(cudaGetLastError());
    BENCH_CK(cudaDeviceSynchronize());
    const std::string bad = check_scan(host, out.to_host());
    if (!bad.empty())
    {
      bench::fail(system, "scan", type, n, bytes, "call " + std::to_string(c) + ": " + bad);
      return;
    }
  }
  bench::row(system, "scan", type, n, bench::time_us(fn), bytes, note);
}

template <typename T>
void run_rows(const Today<T>& today, const Epoch<T>& ep, uint64_t salt)
{
  const char* type = bench::type_name<T>();
  for (long long n : bench::sizes())
  {
    const std::vector<T> host = bench::random_items<T>(n, salt);
    bench::Rotation<T> in(host);
    bench::DeviceBuffer<T> out(static_cast<size_t>(n));
    const long long bytes = 2 * static_cast<long long>(in.bytes());
    size_t cub_bytes = 0;
    BENCH_CK(cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, in.get(0), out.get(), static_cast<int>(n)));
    bench::DeviceBuffer<unsigned char> temp(cub_bytes);
    const size_t state = Today<T>::state_bytes(n);
    bench::DeviceBuffer<unsigned char> d_state(state);
    const size_t region_bytes = gocccl::EpochTileState<T>::AllocationSize(tiles_of(n));
    EpochRegion region(region_bytes, ep.init), region2(region_bytes, ep.init);

    measure("cub", type, n, bytes, out, host, 1,
            [&](int i) {
              size_t tb = temp.size();
              BENCH_CK(cub::DeviceScan::InclusiveSum(temp.get(), tb, in.get(i), out.get(), static_cast<int>(n)));
            },
            "");
    measure("gocccl-kernels", type, n, bytes, out, host, 1,
            [&](int i) { today.run(in.get(i), out.get(), n, d_state.get(), state); },
            "scan_init + inclusive_scan, 128x24, FixedDelay<648,1245>, Go runtime's dispatch in C++");
    measure("gocccl-epoch", type, n, bytes, out, host, 3,
            [&](int i) { ep.run(true, in.get(i), out.get(), n, region); },
            "epoch_inclusive_scan, 128x24, FixedDelay<648,1245>: one launch a call, region initialized once");
    measure("gocccl-epoch+init", type, n, bytes, out, host, 2,
            [&](int i) {
              region2.clean = false; // forces the init before every call
              ep.run(true, in.get(i), out.get(), n, region2);
            },
            "diagnostic: the epoch kernel with its state init before every call (two launches)");
  }
}

// ---------------------------------------------------------------------------
// Stress check.

// Expected values of the scan of items [off, off + n) of the stress input:
// uint32 exactly from a wrapping exclusive prefix P (out[i] = P[off+i+1] -
// P[off], or P[off+i] - P[off] exclusive); float32 from double prefixes.
template <typename T>
struct Prefix;

template <>
struct Prefix<unsigned>
{
  std::vector<unsigned> p;
  explicit Prefix(const std::vector<unsigned>& in) : p(in.size() + 1, 0u)
  {
    for (size_t i = 0; i < in.size(); ++i) p[i + 1] = p[i] + in[i];
  }
  std::string check(const unsigned* got, long long off, long long n, bool inclusive) const
  {
    const unsigned base = p[static_cast<size_t>(off)];
    for (long long i = 0; i < n; ++i)
    {
      const unsigned want = p[static_cast<size_t>(off + i + (inclusive ? 1 : 0))] - base;
      if (got[i] != want)
        return "element " + std::to_string(i) + " (tile " + std::to_string(i / kTile) + ") is " +
               std::to_string(got[i]) + ", want " + std::to_string(want);
    }
    return "";
  }
};

template <>
struct Prefix<float>
{
  std::vector<double> p; // inputs are in [0, 1): the sum is its own magnitude
  explicit Prefix(const std::vector<float>& in) : p(in.size() + 1, 0.0)
  {
    for (size_t i = 0; i < in.size(); ++i) p[i + 1] = p[i] + double(in[i]);
  }
  std::string check(const float* got, long long off, long long n, bool inclusive) const
  {
    const double base = p[static_cast<size_t>(off)];
    for (long long i = 0; i < n; ++i)
    {
      const double want = p[static_cast<size_t>(off + i + (inclusive ? 1 : 0))] - base;
      if (!(std::fabs(double(got[i]) - want) <= 1e-5 * want + 1e-6))
        return "element " + std::to_string(i) + " (tile " + std::to_string(i / kTile) + ") is " +
               std::to_string(got[i]) + ", want " + std::to_string(want);
    }
    return "";
  }
};

// stress_n returns the n of call k of `calls`: phases of 100 calls cycle
// through log-uniform random sizes up to n_max, a linearly growing run up
// to half of n_max, a shrinking one, and tile / window boundaries.
static long long stress_n(int k, long long n_max, uint64_t& rng)
{
  const int phase = (k / 100) % 4, j = k % 100;
  static const long long boundaries[] = {
    1, 2, kTile - 1, kTile, kTile + 1, 2 * kTile - 1, 2 * kTile, 2 * kTile + 1, 31 * kTile, 32 * kTile + 1,
    33 * kTile, 33 * kTile + 1, 34 * kTile - 1, 64 * kTile + 7, 65 * kTile, 100 * kTile + 1, 1000 * kTile,
    1056 * kTile, 1057 * kTile + 1, 1200 * kTile - 1, 1365 * kTile};
  const int nb = static_cast<int>(sizeof boundaries / sizeof boundaries[0]);
  long long n = 1;
  switch (phase)
  {
  case 0: { // log-uniform in [1, n_max]
    const double u = static_cast<double>(bench::splitmix64(rng) >> 11) / 9007199254740992.0;
    n = static_cast<long long>(std::exp(u * std::log(static_cast<double>(n_max))));
    break;
  }
  case 1: n = 1 + static_cast<long long>(j) * (n_max / 2) / 99; break;                // growing
  case 2: n = n_max / 2 - static_cast<long long>(j) * (n_max / 2 - 1) / 99; break;    // shrinking
  default: n = boundaries[(k / 4 + j) % nb]; break;                                    // boundaries
  }
  return std::max(1LL, std::min(n, n_max));
}

// inject overwrites the region's tile words (the padding kept) with words
// of epochs already issued since the init (the last issued, or one or two
// before it; NONE with epoch 0 below 1), PARTIAL or INCLUSIVE, with random
// values: a state the host protocol allows, as if earlier calls had
// published garbage. With `current`, the words carry the next call's epoch
// instead (the control's forbidden state).
static void inject(EpochRegion& r, uint64_t& rng, bool current)
{
  BENCH_CK(cudaDeviceSynchronize());
  const long long words = static_cast<long long>(r.bytes / 8);
  std::vector<unsigned long long> w(static_cast<size_t>(words - gocccl::EPOCH_TILE_PADDING));
  for (auto& x : w)
  {
    const uint64_t z = bench::splitmix64(rng);
    const unsigned back = static_cast<unsigned>(z % 3);
    const unsigned e = current ? r.epoch + 1 : (r.epoch >= back ? r.epoch - back : 0);
    const unsigned kind = e == 0 ? gocccl::EPOCH_TILE_NONE
                                 : ((z >> 8) & 1 ? gocccl::EPOCH_TILE_INCLUSIVE : gocccl::EPOCH_TILE_PARTIAL);
    x = (static_cast<unsigned long long>(z >> 32) << 32) | (static_cast<unsigned long long>(e) << 2) | kind;
  }
  BENCH_CK(cudaMemcpy(r.d + 8 * gocccl::EPOCH_TILE_PADDING, w.data(), w.size() * 8, cudaMemcpyHostToDevice));
}

// stress runs `calls` epoch scans (see the header) on one region and
// returns the number of wrong calls; summary says what happened.
template <typename T>
int stress(const Epoch<T>& ep, int calls, uint64_t salt, std::string& summary)
{
  const char* type = bench::type_name<T>();
  const long long n_max = 1365LL * kTile; // 4,193,280: 1365 tiles, more than one wave at 8 blocks an SM
  const long long max_off = 4096;
  const int batch = 16;
  const std::vector<T> host = bench::random_items<T>(n_max + max_off, salt);
  const Prefix<T> prefix(host);
  bench::DeviceBuffer<T> d_in(host.size());
  BENCH_CK(cudaMemcpy(d_in.get(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  bench::DeviceBuffer<T> outs(static_cast<size_t>(batch) * static_cast<size_t>(n_max));
  T* h_out = nullptr;
  BENCH_CK(cudaMallocHost(&h_out, static_cast<size_t>(n_max) * sizeof(T)));

  // The region starts small (256 tiles) and grows when a call needs more.
  EpochRegion region(gocccl::EpochTileState<T>::AllocationSize(256), ep.init);
  uint64_t rng = bench::state().seed ^ (salt * 0x9E3779B97F4A7C15ull);
  int wrong = 0, grows = 0, stale_injections = 0, foreign = 0, multi = 0;
  bool wrap_set = false;
  long long n_lo = n_max, n_hi = 0;

  for (int k0 = 0; k0 < calls; k0 += batch)
  {
    const int m = std::min(batch, calls - k0);
    long long ns[batch], offs[batch];
    bool incl[batch];
    for (int b = 0; b < m; ++b)
    {
      ns[b] = stress_n(k0 + b, n_max, rng);
      offs[b] = static_cast<long long>(bench::splitmix64(rng) % max_off);
      incl[b] = (k0 + b) % 4 != 3;
      n_lo = std::min(n_lo, ns[b]);
      n_hi = std::max(n_hi, ns[b]);
      multi += tiles_of(ns[b]) > 1;
    }
    // Events between batches. Growth, foreign bytes and the wrap force the
    // host's init; the stale injections are legal states and force nothing.
    const long long need = tiles_of(*std::max_element(ns, ns + m));
    if (need > region.capacity())
    {
      region.grow(gocccl::EpochTileState<T>::AllocationSize(std::max(need, 2 * region.capacity())));
      ++grows;
    }
    if (!wrap_set && region.clean && k0 >= 32)
    {
      region.epoch = gocccl::EPOCH_TILE_MAX - static_cast<unsigned>(calls / 3); // legal: every word is older
      wrap_set = true;
    }
    if (k0 / batch == (calls * 2 / 3) / batch) // foreign bytes over the whole region
    {
      BENCH_CK(cudaDeviceSynchronize());
      std::vector<unsigned char> junk(region.bytes);
      for (auto& c : junk) c = static_cast<unsigned char>(bench::splitmix64(rng));
      BENCH_CK(cudaMemcpy(region.d, junk.data(), junk.size(), cudaMemcpyHostToDevice));
      region.clean = false;
      ++foreign;
    }
    else if (region.clean && (k0 / batch) % 3 == 1) // about every 50 calls
    {
      inject(region, rng, false);
      ++stale_injections;
    }
    // The batch: back to back, each call into its own poisoned output.
    BENCH_CK(cudaMemset(outs.get(), 0xAB, static_cast<size_t>(m) * static_cast<size_t>(n_max) * sizeof(T)));
    for (int b = 0; b < m; ++b)
      ep.run(incl[b], d_in.get() + offs[b], outs.get() + static_cast<size_t>(b) * n_max, ns[b], region);
    BENCH_CK(cudaGetLastError());
    // Progress on stderr (unbuffered): a call that never returns shows
    // which batch, region state and epoch it hangs in.
    std::fprintf(stderr, "stress %s: batch at call %d (n up to %lld), epoch %u, inits %d, clean %d\n", type, k0,
                 *std::max_element(ns, ns + m), region.epoch, region.inits, int(region.clean));
    BENCH_CK(cudaDeviceSynchronize());
    for (int b = 0; b < m; ++b)
    {
      BENCH_CK(cudaMemcpy(h_out, outs.get() + static_cast<size_t>(b) * n_max, static_cast<size_t>(ns[b]) * sizeof(T),
                          cudaMemcpyDeviceToHost));
      const std::string bad = prefix.check(h_out, offs[b], ns[b], incl[b]);
      if (!bad.empty() && wrong++ < 10)
      {
        char what[400];
        std::snprintf(what, sizeof what, "stress call %d (n %lld, offset %lld, %s, inits so far %d): %s", k0 + b,
                      ns[b], offs[b], incl[b] ? "inclusive" : "exclusive", region.inits, bad.c_str());
        bench::fail("gocccl-epoch", "scan_stress", type, ns[b], 0, what);
      }
    }
  }
  BENCH_CK(cudaFreeHost(h_out));
  char buf[400];
  std::snprintf(buf, sizeof buf,
                "%d calls (%d multi-tile), n %lld..%lld, %d wrong; region inits %d (first use, growth x%d, "
                "epoch wrap, foreign bytes x%d), stale-word injections %d, final epoch %u",
                calls, multi, n_lo, n_hi, wrong, region.inits, grows, foreign, stale_injections, region.epoch);
  summary = buf;
  return wrong;
}

// control runs `calls` epoch scans of 200 tiles, each after words carrying
// its own epoch were injected into the region (a state the host protocol
// forbids), and returns how many came out wrong: it must be most of them,
// or the stress check could not see a stale state taken for a current one.
template <typename T>
int control(const Epoch<T>& ep, int calls, uint64_t salt)
{
  const long long n = 200LL * kTile;
  const std::vector<T> host = bench::random_items<T>(n, salt);
  const Prefix<T> prefix(host);
  bench::DeviceBuffer<T> d_in(host.size()), out(host.size());
  BENCH_CK(cudaMemcpy(d_in.get(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  EpochRegion region(gocccl::EpochTileState<T>::AllocationSize(tiles_of(n)), ep.init);
  uint64_t rng = bench::state().seed ^ (salt * 0x9E3779B97F4A7C15ull);
  ep.run(true, d_in.get(), out.get(), n, region); // the init and a first call
  int wrong = 0;
  for (int c = 0; c < calls; ++c)
  {
    inject(region, rng, true);
    out.poison();
    ep.run(true, d_in.get(), out.get(), n, region);
    BENCH_CK(cudaGetLastError());
    BENCH_CK(cudaDeviceSynchronize());
    wrong += !prefix.check(out.to_host().data(), 0, n, true).empty();
  }
  return wrong;
}

template <typename T>
void run_stress(const Epoch<T>& ep, int calls, uint64_t salt)
{
  const char* type = bench::type_name<T>();
  std::string summary;
  const int wrong = stress(ep, calls, salt, summary);
  std::printf("# stress %s: %s: %s\n", type, wrong ? "FAILED" : "all correct", summary.c_str());
  std::fflush(stdout);
  const int ccalls = 16, cwrong = control(ep, ccalls, salt + 100);
  std::printf("# stress control %s (words of the call's own epoch injected before it): %d of %d calls wrong: %s\n",
              type, cwrong, ccalls, cwrong > 0 ? "detected, as it must be" : "NOT DETECTED");
  if (cwrong == 0)
    bench::fail("gocccl-epoch", "scan_stress_control", type, 200LL * kTile, 0,
                "injected current-epoch words went unnoticed: the stress check cannot see stale states");
  std::fflush(stdout);
}

template <typename F>
void print_regs(const char* name, F* kernel)
{
  cudaFuncAttributes a;
  BENCH_CK(cudaFuncGetAttributes(&a, kernel));
  std::printf("# %s: %d registers, %zu bytes static smem, %zu bytes local\n", name, a.numRegs, a.sharedSizeBytes,
              a.localSizeBytes);
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "scan_epoch");
  std::printf("# CUB_VERSION %d\n", CUB_VERSION);
  print_regs("scan_u32_incl (today)", scan_u32_incl);
  print_regs("scan_u32_epoch_incl", scan_u32_epoch_incl);
  print_regs("scan_f32_incl (today)", scan_f32_incl);
  print_regs("scan_f32_epoch_incl", scan_f32_epoch_incl);
  const Today<unsigned> tu{scan_u32_init, scan_u32_incl};
  const Today<float> tf{scan_f32_init, scan_f32_incl};
  const Epoch<unsigned> eu{scan_u32_epoch_init, scan_u32_epoch_incl, scan_u32_epoch_excl};
  const Epoch<float> ef{scan_f32_epoch_init, scan_f32_epoch_incl, scan_f32_epoch_excl};
  if (bench::wants("rows"))
  {
    run_rows(tu, eu, 1);
    run_rows(tf, ef, 2);
  }
  if (bench::wants("stress"))
  {
    // 2000 and 600 calls ran past 140 s on the H200 (each call's output
    // is copied back and checked on the host); these keep every event.
    run_stress(eu, 400, 11);
    run_stress(ef, 150, 12);
  }
  return bench::finish();
}
