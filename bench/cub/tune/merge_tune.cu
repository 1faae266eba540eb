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
template <int THREADS, int ITEMS, typename T>
__global__ void __launch_bounds__(THREADS) tiles_kernel(const T* a, long long na, const T* b, long long nb, T* out, const int64_t* s)
{
  gocccl::merge_tiles<THREADS, ITEMS, T, Less>(a, na, b, nb, out, s);
}

// A candidate for merge.cuh's merge_tiles, kept here until the H200 has timed
// it (bench/NOTES.md): CUB's agent_merge differs from ours in three ways,
// which this variant adopts. (1) The tile's inputs are loaded striped with
// all of a thread's loads in flight before the shared-memory stores. (2) The
// in-tile merge path runs in 32-bit arithmetic. (3) The serial merge keeps
// the current key of each input in registers and reads one key from shared
// memory per output item (cub::SerialMerge), where merge_tiles reads two.
namespace candidate
{
template <typename T, typename LessOp>
__device__ __forceinline__ int merge_path(const T* a, int na, const T* b, int nb, int diag, const LessOp& less)
{
  int lo = diag > nb ? diag - nb : 0;
  int hi = diag < na ? diag : na;
  while (lo < hi)
  {
    const int mid = (lo + hi) >> 1;
    if (!less(b[diag - 1 - mid], a[mid]))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename LessOp>
__device__ void merge_tiles(const T* d_a, long long n_a, const T* d_b, long long n_b, T* d_out, const int64_t* d_splits)
{
  constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
  __shared__ alignas(T) unsigned char raw[TILE * sizeof(T)];
  T* keys = reinterpret_cast<T*>(raw);
  LessOp less;
  const int tid = threadIdx.x;
  const long long tile = blockIdx.x;
  const long long total = n_a + n_b;
  const long long diag0 = tile * TILE;
  const long long diag1 = diag0 + TILE < total ? diag0 + TILE : total;
  const long long a0 = d_splits[tile], a1 = d_splits[tile + 1];
  const long long b0 = diag0 - a0;
  const int na = static_cast<int>(a1 - a0);
  const int count = static_cast<int>(diag1 - diag0);
  const int nb = count - na;

  T staged[ITEMS_PER_THREAD];
#pragma unroll
  for (int k = 0; k < ITEMS_PER_THREAD; ++k)
  {
    const int i = tid + k * BLOCK_THREADS;
    if (i < count)
      staged[k] = i < na ? d_a[a0 + i] : d_b[b0 + (i - na)];
  }
#pragma unroll
  for (int k = 0; k < ITEMS_PER_THREAD; ++k)
  {
    const int i = tid + k * BLOCK_THREADS;
    if (i < count)
      keys[i] = staged[k];
  }
  __syncthreads();

  const int diag = tid * ITEMS_PER_THREAD < count ? tid * ITEMS_PER_THREAD : count;
  int ai = merge_path(keys, na, keys + na, nb, diag, less);
  int bi = na + (diag - ai); // index into keys of b's current item
  const int a_end = na, b_end = count;
  T ka = keys[ai < a_end ? ai : 0];
  T kb = keys[bi < b_end ? bi : 0];
  T out[ITEMS_PER_THREAD];
#pragma unroll
  for (int k = 0; k < ITEMS_PER_THREAD; ++k)
  {
    const bool take_b = bi < b_end && (ai >= a_end || less(kb, ka));
    out[k] = take_b ? kb : ka;
    if (take_b)
    {
      ++bi;
      kb = keys[bi < b_end ? bi : 0];
    }
    else
    {
      ++ai;
      ka = keys[ai < a_end ? ai : 0];
    }
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    if (diag + k < count)
      keys[diag + k] = out[k];
  __syncthreads();
#pragma unroll
  for (int k = 0; k < ITEMS_PER_THREAD; ++k)
  {
    const int i = tid + k * BLOCK_THREADS;
    if (i < count)
      d_out[diag0 + i] = keys[i];
  }
}
} // namespace candidate

template <int THREADS, int ITEMS, typename T>
__global__ void __launch_bounds__(THREADS) candidate_kernel(const T* a, long long na, const T* b, long long nb, T* out, const int64_t* s)
{
  candidate::merge_tiles<THREADS, ITEMS, T, Less>(a, na, b, nb, out, s);
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

// One shape of merge.cuh's kernels, or with CANDIDATE the candidate above
// (after the same partition kernel).
template <int THREADS, int ITEMS, typename T, bool CANDIDATE = false>
void shape(const Data<T>& d, bench::DeviceBuffer<T>& out)
{
  constexpr long long tile = THREADS * ITEMS;
  const long long tiles = (d.n + tile - 1) / tile;
  bench::DeviceBuffer<int64_t> splits(static_cast<size_t>(tiles + 1));
  const std::string system =
    "gocccl-" + std::to_string(THREADS) + "x" + std::to_string(ITEMS) + (CANDIDATE ? "-candidate" : "");
  measure(d, out, system, [&](int i) {
    partition_kernel<THREADS, ITEMS, T><<<static_cast<unsigned>((tiles + THREADS) / THREADS), THREADS>>>(
      d.a->get(i), d.na, d.b->get(i), d.nb, splits.get(), tiles);
    if (tiles == 0) return;
    if (CANDIDATE)
      candidate_kernel<THREADS, ITEMS, T><<<static_cast<unsigned>(tiles), THREADS>>>(d.a->get(i), d.na, d.b->get(i),
                                                                                   d.nb, out.get(), splits.get());
    else
      tiles_kernel<THREADS, ITEMS, T><<<static_cast<unsigned>(tiles), THREADS>>>(d.a->get(i), d.na, d.b->get(i), d.nb,
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
    constexpr int I = sizeof(T) >= 8 ? 7 : 15; // internal/algo.mergePolicy's items
    // The H200 run of 2026-12-01 late also timed 384 x I and 256 x 22 (4-byte)
    // / 11 (8-byte): neither led anywhere.
    shape<512, I, T>(d, out); // the policy
    shape<512, I, T, true>(d, out);
    shape<256, I, T>(d, out);
    shape<256, I, T, true>(d, out);
    shape<128, sizeof(T) >= 8 ? 15 : 30, T>(d, out);
    shape<128, sizeof(T) >= 8 ? 15 : 30, T, true>(d, out);
  }
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "merge_tune");
  run_type<uint32_t>(1);
  run_type<uint64_t>(2);
  return bench::finish();
}
