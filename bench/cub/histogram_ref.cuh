// histogram_ref.cuh: the host's reference bins of bench/cub/histogram.cu and
// bench/cub/tune/hist_ab.cu (runtime/histogram.go's formula), and one_wave,
// the grid of a kernel's resident blocks. Include after bench.cuh, with
// kThreads (the kernels' block size) declared.
#pragma once

#include <algorithm>
#include <type_traits>

// mul_div is a * b / c in 128 bits (a < c: the quotient fits 64 bits), the
// integer bin formula without overflow for 8-byte samples.
static unsigned long long mul_div(unsigned long long a, unsigned long long b, unsigned long long c)
{
  return static_cast<unsigned long long>(static_cast<unsigned __int128>(a) * b / c);
}

// ref_bin is the CPU reference of our bins, -1 outside [lo, up).
template <typename T>
static int ref_bin(T x, int bins, T lo, T up)
{
  if (!(x >= lo && x < up)) return -1;
  if constexpr (std::is_floating_point<T>::value)
  {
    const T scale = T(bins) / (up - lo);
    const T f = (x - lo) * scale;
    int b = f < T(bins) ? int(f) : bins - 1;
    return std::min(b, bins - 1);
  }
  else
  {
    return int(mul_div((unsigned long long)(x - lo), (unsigned long long)bins, (unsigned long long)(up - lo)));
  }
}

// one_wave is the blocks of kernel (kThreads threads) resident at once on the device.
template <typename K>
static int one_wave(K kernel)
{
  int occ = 0;
  BENCH_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kernel, kThreads, 0));
  return std::max(1, occ * bench::state().sms);
}
