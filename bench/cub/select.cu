// select.cu: CUB's compactions on the same data and sizes as gocccl's
// Timings (internal/devicetest/select), for the benchmark table.
//
// For n = 2^10, 2^16, 2^20, 2^24, 2^28 over uint32:
//   Select           cub::DeviceSelect::If           keep odd values (about half)
//   Partition        cub::DevicePartition::If        odd first, the rest reversed
//   Unique           cub::DeviceSelect::Unique       runs of 7 equal values
//   UniqueByKey      cub::DeviceSelect::UniqueByKey  runs of 7 keys, uint32 values
//   RunLengthEncode  cub::DeviceRunLengthEncode::Encode  runs of 7
// Inputs are those of Timings: x[i] = i * 2654435761 and runs[i] = (i / 7) *
// 2654435761 (uint32 arithmetic). Temp storage is allocated beforehand. Each
// figure is the median of kRuns event-timed calls after one warm-up call;
// inputs rotate over several identical buffers that together exceed twice
// the L2 cache (at least 2), so timed calls read DRAM. Every call's count is
// checked against the host, and the first and last selected items.
//
// Prints TSV rows: cub <TAB> Algorithm <TAB> uint32 <TAB> n <TAB> median_us <TAB> bytes_moved
//
// Build (CUDA 13 / CCCL 3 on the GPU machine; CUDA 11.8 / CUB 1.17 also works):
//   nvcc -std=c++17 -O3 -arch=sm_90 -o select_bench bench/cub/select.cu

#include <cub/device/device_partition.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_select.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

static void check_cuda(cudaError_t err, const char* what, const char* file, int line)
{
  if (err != cudaSuccess)
  {
    std::fprintf(stderr, "%s:%d: CUDA error %s (%s) in %s\n", file, line, cudaGetErrorName(err),
                 cudaGetErrorString(err), what);
    std::exit(2);
  }
}
#define CK(call) check_cuda((call), #call, __FILE__, __LINE__)

static constexpr int kRuns = 25;
static int g_failures = 0;

/// Keeps odd values (CCCL 3 has no predefined predicates to reuse).
struct IsOdd
{
  __host__ __device__ bool operator()(const uint32_t& x) const { return (x & 1u) != 0; }
};

/// Median of kRuns event-timed calls of call(i) after one warm-up call, in µs.
static double time_median(cudaStream_t s, const std::function<void(int)>& call)
{
  cudaEvent_t start, stop;
  CK(cudaEventCreate(&start));
  CK(cudaEventCreate(&stop));
  call(0);
  CK(cudaStreamSynchronize(s));
  std::vector<float> ms;
  for (int r = 1; r <= kRuns; ++r)
  {
    CK(cudaEventRecord(start, s));
    call(r);
    CK(cudaEventRecord(stop, s));
    CK(cudaEventSynchronize(stop));
    float t = 0;
    CK(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  CK(cudaEventDestroy(start));
  CK(cudaEventDestroy(stop));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2] * 1000.0;
}

static void check(const char* alg, long long n, long long got, long long want)
{
  if (got != want)
  {
    std::fprintf(stderr, "%s n=%lld: count %lld, want %lld\n", alg, n, got, want);
    ++g_failures;
  }
}

int main()
{
  int dev = 0, l2 = 0;
  CK(cudaGetDevice(&dev));
  CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  cudaStream_t s;
  CK(cudaStreamCreate(&s));

  for (int lg : {10, 16, 20, 24, 28})
  {
    const long long n = 1LL << lg;
    const size_t bytes = n * sizeof(uint32_t);
    std::vector<uint32_t> h_x(n), h_runs(n);
    long long odd = 0, runs = 0;
    for (long long i = 0; i < n; ++i)
    {
      h_x[i] = static_cast<uint32_t>(i) * 2654435761u;
      h_runs[i] = static_cast<uint32_t>(i / 7) * 2654435761u;
      odd += h_x[i] & 1u;
      runs += i == 0 || h_runs[i] != h_runs[i - 1];
    }
    const int copies = static_cast<int>(std::max<long long>(2, std::min<long long>(64, (2LL * l2 + bytes - 1) / bytes)));
    std::vector<uint32_t*> xs(copies), rs(copies);
    for (int c = 0; c < copies; ++c)
    {
      CK(cudaMalloc(&xs[c], bytes));
      CK(cudaMalloc(&rs[c], bytes));
      CK(cudaMemcpy(xs[c], h_x.data(), bytes, cudaMemcpyHostToDevice));
      CK(cudaMemcpy(rs[c], h_runs.data(), bytes, cudaMemcpyHostToDevice));
    }
    uint32_t *out, *vout;
    int* lens;
    int* count;
    CK(cudaMalloc(&out, bytes));
    CK(cudaMalloc(&vout, bytes));
    CK(cudaMalloc(&lens, n * sizeof(int)));
    CK(cudaMalloc(&count, sizeof(int)));

    // Temp storage: the largest any of the calls asks for.
    size_t temp_bytes = 0, b = 0;
    const int ni = static_cast<int>(n);
    CK(cub::DeviceSelect::If(nullptr, b, xs[0], out, count, ni, IsOdd(), s));
    temp_bytes = std::max(temp_bytes, b);
    CK(cub::DevicePartition::If(nullptr, b, xs[0], out, count, ni, IsOdd(), s));
    temp_bytes = std::max(temp_bytes, b);
    CK(cub::DeviceSelect::Unique(nullptr, b, rs[0], out, count, ni, s));
    temp_bytes = std::max(temp_bytes, b);
    CK(cub::DeviceSelect::UniqueByKey(nullptr, b, rs[0], xs[0], out, vout, count, ni, s));
    temp_bytes = std::max(temp_bytes, b);
    CK(cub::DeviceRunLengthEncode::Encode(nullptr, b, rs[0], out, lens, count, ni, s));
    temp_bytes = std::max(temp_bytes, b);
    void* temp;
    CK(cudaMalloc(&temp, temp_bytes));

    struct Case
    {
      const char* name;
      long long want;
      long long bytes_moved;
      std::function<void(int)> call;
    };
    const Case cases[] = {
      {"Select", odd, 4 * n + 4 * odd,
       [&](int r) { size_t t = temp_bytes; CK(cub::DeviceSelect::If(temp, t, xs[r % copies], out, count, ni, IsOdd(), s)); }},
      {"Partition", odd, 8 * n,
       [&](int r) { size_t t = temp_bytes; CK(cub::DevicePartition::If(temp, t, xs[r % copies], out, count, ni, IsOdd(), s)); }},
      {"Unique", runs, 4 * n + 4 * runs,
       [&](int r) { size_t t = temp_bytes; CK(cub::DeviceSelect::Unique(temp, t, rs[r % copies], out, count, ni, s)); }},
      {"UniqueByKey", runs, 8 * n + 8 * runs,
       [&](int r) {
         size_t t = temp_bytes;
         CK(cub::DeviceSelect::UniqueByKey(temp, t, rs[r % copies], xs[r % copies], out, vout, count, ni, s));
       }},
      {"RunLengthEncode", runs, 4 * n + 8 * runs,
       [&](int r) { size_t t = temp_bytes; CK(cub::DeviceRunLengthEncode::Encode(temp, t, rs[r % copies], out, lens, count, ni, s)); }},
    };
    for (const Case& c : cases)
    {
      const double us = time_median(s, c.call);
      int got = -1;
      CK(cudaMemcpy(&got, count, sizeof(int), cudaMemcpyDeviceToHost));
      check(c.name, n, got, c.want);
      uint32_t first = 0, last = 0;
      CK(cudaMemcpy(&first, out, sizeof(uint32_t), cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(&last, out + (c.want - 1), sizeof(uint32_t), cudaMemcpyDeviceToHost));
      const bool is_select = c.name[0] == 'S' || c.name[0] == 'P';
      const uint32_t want_first = is_select ? h_x[1] : h_runs[0]; // x[1] is the first odd value
      const uint32_t want_last = is_select ? 0 : h_runs[n - 1];
      if (first != want_first || (!is_select && last != want_last))
      {
        std::fprintf(stderr, "%s n=%lld: first/last item %u/%u, want %u/%u\n", c.name, n, first, last, want_first, want_last);
        ++g_failures;
      }
      std::printf("cub\t%s\tuint32\t%lld\t%.2f\t%lld\n", c.name, n, us, c.bytes_moved);
      std::fflush(stdout);
    }

    CK(cudaFree(temp));
    CK(cudaFree(count));
    CK(cudaFree(lens));
    CK(cudaFree(vout));
    CK(cudaFree(out));
    for (int c = 0; c < copies; ++c)
    {
      CK(cudaFree(xs[c]));
      CK(cudaFree(rs[c]));
    }
  }
  CK(cudaStreamDestroy(s));
  if (g_failures)
  {
    std::fprintf(stderr, "%d checks failed\n", g_failures);
    return 1;
  }
  return 0;
}
