// merge_tune.cu: gocccl's merge (merge_partition + merge_tiles,
// kernels/include/gocccl/merge.cuh) at several tile shapes beside
// cub::DeviceMerge::MergeKeys on the same n/2 + n/2 sorted keys, in one run,
// to choose the merge policy. Rows in bench.cuh's format; the system column
// names the shape ("gocccl-512x15") or "cub". Every output is checked against
// std::merge before it is timed.
//
// Build on the GPU machine, from the repository root:
//   nvcc -std=c++17 -O3 -arch=sm_90 -Ikernels/include -Ibench/cub \
//     -o /tmp/merge_tune bench/cub/tune/merge_tune.cu
//   /tmp/merge_tune --sizes 16,20,24,28
#include "bench.cuh"

#include <gocccl/merge.cuh>

#include <cub/device/device_merge.cuh>

#include <algorithm>
#include <string>
#include <vector>

struct Less
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const { return a < b; }
};

template <int THREADS, int ITEMS, typename T>
__global__ void __launch_bounds__(THREADS) partition_kernel(const T* a, long long na, const T* b, long long nb, int64_t* s, long long tiles)
{
  gocccl::merge_partition<THREADS, ITEMS, T, Less>(a, na, b, nb, s, tiles);
}
template <int THREADS, int ITEMS, typename T, int MIN_BLOCKS>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS) tiles_kernel(const T* a, long long na, const T* b, long long nb, T* out, const int64_t* s)
{
  gocccl::merge_tiles<THREADS, ITEMS, T, Less>(a, na, b, nb, out, s);
}

template <typename T>
struct Data
{
  long long n, na, nb;
  std::vector<T> want;
  bench::Rotation<T>* a;
  bench::Rotation<T>* b;
};

template <typename T, typename F>
void measure(const Data<T>& d, bench::DeviceBuffer<T>& out, const std::string& system, F&& fn)
{
  const char* type = bench::type_name<T>();
  const long long bytes = 2 * d.n * static_cast<long long>(sizeof(T));
  out.poison();
  fn(0);
  BENCH_CK(cudaGetLastError());
  BENCH_CK(cudaDeviceSynchronize());
  if (std::memcmp(out.to_host().data(), d.want.data(), d.n * sizeof(T)) != 0)
    bench::fail(system.c_str(), "merge", type, d.n, bytes, "merged keys differ from std::merge");
  else
    bench::row(system.c_str(), "merge", type, d.n, bench::time_us(fn), bytes, "n/2 + n/2 keys");
}

// One shape of merge.cuh's kernels, dispatched as runtime.MergeOp does (one
// tile: no partition); MIN_BLOCKS, when above 0, is the tile kernel's
// __launch_bounds__ minimum of blocks an SM (the policy's MinBlocks).
template <int THREADS, int ITEMS, typename T, int MIN_BLOCKS = 0>
void shape(const Data<T>& d, bench::DeviceBuffer<T>& out)
{
  constexpr long long tile = THREADS * ITEMS;
  const long long tiles = (d.n + tile - 1) / tile;
  bench::DeviceBuffer<int64_t> splits(static_cast<size_t>(tiles + 1));
  const std::string system =
    "gocccl-" + std::to_string(THREADS) + "x" + std::to_string(ITEMS) + (MIN_BLOCKS > 1 ? "-min" + std::to_string(MIN_BLOCKS) : "");
  measure(d, out, system, [&](int i) {
    if (tiles > 1)
      partition_kernel<THREADS, ITEMS, T><<<static_cast<unsigned>((tiles + THREADS) / THREADS), THREADS>>>(
        d.a->get(i), d.na, d.b->get(i), d.nb, splits.get(), tiles);
    if (tiles > 0)
      tiles_kernel<THREADS, ITEMS, T, MIN_BLOCKS><<<static_cast<unsigned>(tiles), THREADS>>>(d.a->get(i), d.na, d.b->get(i), d.nb,
                                                                               out.get(), splits.get());
  });
}

template <typename T>
void run_type(uint64_t salt)
{
  for (long long n : bench::sizes())
  {
    Data<T> d;
    d.n = n, d.na = n / 2, d.nb = n - n / 2;
    std::vector<T> a = bench::random_items<T>(d.na, salt), b = bench::random_items<T>(d.nb, salt + 7);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    d.want.resize(static_cast<size_t>(n));
    std::merge(a.begin(), a.end(), b.begin(), b.end(), d.want.begin(), Less{});
    bench::Rotation<T> ra(a), rb(b);
    d.a = &ra, d.b = &rb;
    bench::DeviceBuffer<T> out(static_cast<size_t>(n));
    size_t temp_bytes = 0;
    BENCH_CK(cub::DeviceMerge::MergeKeys(nullptr, temp_bytes, ra.get(0), d.na, rb.get(0), d.nb, out.get(), Less{}));
    bench::DeviceBuffer<unsigned char> temp(temp_bytes);
    measure(d, out, "cub", [&](int i) {
      size_t t = temp_bytes;
      BENCH_CK(cub::DeviceMerge::MergeKeys(temp.get(), t, ra.get(i), d.na, rb.get(i), d.nb, out.get(), Less{}));
    });
    // The policy on sm_90 (internal/algo.mergePolicy): 1024 / sizeof(T)
    // threads x 15, a 15 KiB tile. The H200 run of 2026-12-02 timed these
    // shapes with the kernel before and after it took AgentMerge's loads and
    // serial merge (bench/NOTES.md); 2026-12-01 late also 384 x 15/7 and
    // 256 x 22/11, which led nowhere.
    constexpr int P = 1024 / static_cast<int>(sizeof(T));
    shape<P, 15, T>(d, out); // the policy
    shape<512, sizeof(T) >= 8 ? 7 : 15, T>(d, out); // CUB's tuning
    shape<P / 2, 15, T>(d, out);
    shape<P, 11, T>(d, out);
    // Occupancy: CUB's sm_90 merge kernel takes 32 registers at 512 x 15
    // over 4-byte keys (64 warps an SM); gocccl's 44-58 (2026-12-03).
    if constexpr (sizeof(T) == 4)
    {
      shape<256, 15, T, 8>(d, out);
      shape<512, 15, T, 4>(d, out);
      shape<256, 15, T, 6>(d, out);
    }
  }
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "merge_tune");
  run_type<uint32_t>(1);
  run_type<uint64_t>(2);
  return bench::finish();
}
