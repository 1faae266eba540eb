// fill.cu: fills, generators, conditional transforms and batched copies with
// CUB 3.0's device-level calls, one TSV row each (bench.cuh's format), as
// bench/gpubench/fill.go:
//
//   cub   fill                cub::DeviceFor::Bulk writing one value (uint32,
//                             uint64); bytes written
//   cuda  fill                cudaMemsetAsync of the same bytes (a byte
//                             pattern only: the floor of a fill)
//   cub   generate            DeviceFor::Bulk writing hash(i) (uint32)
//   cub   transform_if        DeviceFor::Bulk writing x*3+1 where x is odd
//                             (thrust::transform_if's work), uint32; bytes
//                             read + written, all outputs counted
//   cub   batched_copy        cub::DeviceMemcpy::Batched of 2^16 ranges of
//                             1-4096 bytes (about 128 MiB), sources side by
//                             side, destinations in a random order; pointers
//                             from offsets through transform iterators
//   cub   batched_copy_large  the same with 256 ranges of 256-768 KiB
//
// Checks before timing: every output against a host loop.
//
// Usage: fill [--runs R] [--sizes 10,16,20,24,28] [--seed S]

#include "bench.cuh"

#include <cub/version.cuh>

#if CUB_VERSION >= 200500
#include <cub/device/device_for.cuh>
#include <cub/device/device_memcpy.cuh>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#endif

#include <string>
#include <vector>

__host__ __device__ inline uint32_t index_hash(long long i)
{
  const uint32_t x = static_cast<uint32_t>(i) * 0x9E3779B1u;
  return x ^ (x >> 15);
}

#if CUB_VERSION >= 200500

template <typename T>
struct FillOp
{
  T* out;
  T value;
  __device__ void operator()(long long i) const { out[i] = value; }
};

struct GenerateOp
{
  uint32_t* out;
  __device__ void operator()(long long i) const { out[i] = index_hash(i); }
};

struct TransformIfOp
{
  const uint32_t* in;
  uint32_t* out;
  __device__ void operator()(long long i) const
  {
    const uint32_t x = in[i];
    if (x & 1u) out[i] = x * 3u + 1u;
  }
};

template <typename T>
void run_fill(T value)
{
  const char* type = bench::type_name<T>();
  for (long long n : bench::sizes())
  {
    bench::DeviceBuffer<T> out(static_cast<size_t>(n));
    const long long bytes = n * static_cast<long long>(sizeof(T));
    auto run = [&](int) { BENCH_CK(cub::DeviceFor::Bulk(n, FillOp<T>{out.get(), value})); };
    out.poison();
    run(0);
    BENCH_CK(cudaDeviceSynchronize());
    const std::vector<T> got = out.to_host();
    bool ok = true;
    for (const T& x : got) ok &= x == value;
    if (!ok) bench::fail("cub", "fill", type, n, bytes, "an item is not the value");
    else bench::row("cub", "fill", type, n, bench::time_us(run), bytes, "DeviceFor::Bulk writing one value");
    auto memset = [&](int) { BENCH_CK(cudaMemsetAsync(out.get(), 0x5A, static_cast<size_t>(bytes), 0)); };
    bench::row("cuda", "fill", type, n, bench::time_us(memset), bytes, "cudaMemsetAsync (a byte pattern)");
  }
}

void run_generate()
{
  for (long long n : bench::sizes())
  {
    bench::DeviceBuffer<uint32_t> out(static_cast<size_t>(n));
    const long long bytes = n * 4;
    auto run = [&](int) { BENCH_CK(cub::DeviceFor::Bulk(n, GenerateOp{out.get()})); };
    out.poison();
    run(0);
    BENCH_CK(cudaDeviceSynchronize());
    const std::vector<uint32_t> got = out.to_host();
    long long bad = -1;
    for (long long i = 0; i < n && bad < 0; ++i)
      if (got[static_cast<size_t>(i)] != index_hash(i)) bad = i;
    if (bad >= 0) bench::fail("cub", "generate", "uint32", n, bytes, "item " + std::to_string(bad) + " differs");
    else bench::row("cub", "generate", "uint32", n, bench::time_us(run), bytes, "DeviceFor::Bulk writing hash(i)");
  }
}

void run_transform_if()
{
  for (long long n : bench::sizes())
  {
    const std::vector<uint32_t> host = bench::random_items<uint32_t>(n, 11);
    bench::Rotation<uint32_t> in(host);
    bench::DeviceBuffer<uint32_t> out(static_cast<size_t>(n));
    const long long bytes = n * 8;
    auto run = [&](int i) { BENCH_CK(cub::DeviceFor::Bulk(n, TransformIfOp{in.get(i), out.get()})); };
    out.poison();
    run(0);
    BENCH_CK(cudaDeviceSynchronize());
    const std::vector<uint32_t> got = out.to_host();
    long long bad = -1;
    for (long long i = 0; i < n && bad < 0; ++i)
    {
      const uint32_t x = host[static_cast<size_t>(i)];
      const uint32_t want = (x & 1u) ? x * 3u + 1u : 0xABABABABu;
      if (got[static_cast<size_t>(i)] != want) bad = i;
    }
    if (bad >= 0) bench::fail("cub", "transform_if", "uint32", n, bytes, "item " + std::to_string(bad) + " differs");
    else bench::row("cub", "transform_if", "uint32", n, bench::time_us(run), bytes, "DeviceFor::Bulk, x*3+1 where x is odd");
  }
}

// RangePtr maps range i to base + offsets[i].
template <typename P>
struct RangePtr
{
  P base;
  const long long* offsets;
  __host__ __device__ P operator()(long long i) const { return base + offsets[i]; }
};

void run_batched(const char* alg, long long k, long long lo, long long hi)
{
  // The layout of bench/gpubench/fill.go's case: sizes in [lo, hi],
  // sources side by side in order, destinations in a random order.
  uint64_t s = bench::state().seed ^ static_cast<uint64_t>(k) * 0x9E3779B97F4A7C15ull;
  std::vector<long long> sizes(static_cast<size_t>(k)), src_off(sizes.size()), dst_off(sizes.size());
  long long total = 0;
  for (size_t i = 0; i < sizes.size(); ++i)
  {
    sizes[i] = lo + static_cast<long long>(bench::splitmix64(s) % static_cast<uint64_t>(hi - lo + 1));
    src_off[i] = total;
    total += sizes[i];
  }
  std::vector<size_t> perm(sizes.size());
  for (size_t i = 0; i < perm.size(); ++i) perm[i] = i;
  for (size_t i = perm.size(); i > 1; --i) std::swap(perm[i - 1], perm[bench::splitmix64(s) % i]);
  long long at = 0;
  for (size_t j : perm)
  {
    dst_off[j] = at;
    at += sizes[j];
  }
  const std::vector<unsigned char> host = bench::random_items<unsigned char>(total, 12);
  std::vector<unsigned char> want(static_cast<size_t>(total));
  for (size_t i = 0; i < sizes.size(); ++i)
    std::memcpy(want.data() + dst_off[i], host.data() + src_off[i], static_cast<size_t>(sizes[i]));
  bench::Rotation<unsigned char> in(host);
  bench::DeviceBuffer<unsigned char> out(static_cast<size_t>(total));
  bench::DeviceBuffer<long long> d_src(sizes.size()), d_dst(sizes.size()), d_sizes(sizes.size());
  BENCH_CK(cudaMemcpy(d_src.get(), src_off.data(), sizes.size() * 8, cudaMemcpyHostToDevice));
  BENCH_CK(cudaMemcpy(d_dst.get(), dst_off.data(), sizes.size() * 8, cudaMemcpyHostToDevice));
  BENCH_CK(cudaMemcpy(d_sizes.get(), sizes.data(), sizes.size() * 8, cudaMemcpyHostToDevice));
  const long long bytes = 2 * total;
  auto srcs = [&](int i) {
    return thrust::make_transform_iterator(thrust::counting_iterator<long long>(0),
                                           RangePtr<const unsigned char*>{in.get(i), d_src.get()});
  };
  auto dsts = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0),
                                              RangePtr<unsigned char*>{out.get(), d_dst.get()});
  size_t tb = 0;
  BENCH_CK(cub::DeviceMemcpy::Batched(nullptr, tb, srcs(0), dsts, d_sizes.get(), k));
  bench::DeviceBuffer<unsigned char> tmp(tb);
  auto run = [&](int i) {
    size_t b = tb;
    BENCH_CK(cub::DeviceMemcpy::Batched(tmp.get(), b, srcs(i), dsts, d_sizes.get(), k));
  };
  out.poison();
  run(0);
  BENCH_CK(cudaDeviceSynchronize());
  const std::string note = std::to_string(k) + " ranges of " + std::to_string(lo) + "-" + std::to_string(hi)
                         + " bytes, " + std::to_string(total >> 20) + " MiB, destinations scattered";
  if (std::memcmp(out.to_host().data(), want.data(), want.size()) != 0)
    bench::fail("cub", alg, "uint8", k, bytes, "bytes differ from the ranges' sources");
  else bench::row("cub", alg, "uint8", k, bench::time_us(run), bytes, "DeviceMemcpy::Batched, " + note);
}

#endif // CUB_VERSION >= 200500

int main(int argc, char** argv)
{
  bench::init(argc, argv, "fill");
  std::printf("# CUB_VERSION %d\n", CUB_VERSION);
#if CUB_VERSION >= 200500
  run_fill<uint32_t>(0x01020304u);
  run_fill<uint64_t>(0x0102030405060708ull);
  run_generate();
  run_transform_if();
  run_batched("batched_copy", 1 << 16, 1, 4096);
  run_batched("batched_copy_large", 256, 256 << 10, 768 << 10);
#else
  bench::skip("cub", "fill", "uint32", 0, 0, "DeviceFor and DeviceMemcpy need CUB 2.5 or later");
#endif
  return bench::finish();
}
