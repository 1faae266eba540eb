/*
 * gocccl/iterator.cuh: the iterators of package iterator as CUB-style
 * random-access iterators (value_type, operator[], operator+, operator*),
 * passed to kernels by value. gocccl-gen writes an entry point's In / Out
 * parameter as the iterator type of the composition an instance declared
 * (runtime's Over / Into); the runtime packs the bound values into the
 * parameter with the layout of these structs (internal/iter.Pack), so every
 * struct here is plain data in the order that Pack writes it, and member
 * functors are default-constructed where they are used, never stored.
 *
 *   input                        layout                         element i
 *   Pointer<T>                   { const T* p; }                p[i]
 *   Counting<T>                  { T start; }                   start + T(i), Go's wrapping / rounding
 *   Constant<T>                  { T value; }                   value
 *   Shuffle                      { long long n; u64 seed; }     Feistel permutation of [0, n) (long long)
 *   Transform<V, It, F>          { It in; }                     F()(in[i])
 *   Permutation<It, Idx>         { It values; Idx idx;          values[idx[i]], trapping unless
 *                                  long long bound; }           0 <= idx[i] < bound (bound < 0: none)
 *   Reverse<It>                  { It in; long long last; }     in[last - i]
 *   Zip<Z, Offsets<o...>, It...> { Store<It...> s; }            Z with the bytes of field k at o_k from It_k[i]
 *   CacheModified<T, MODE>       { const T* p; }                p[i] through ld.global.cs / .cg / .volatile
 *
 *   output                                     layout                      out[i] = v
 *   OutPointer<T>                              { T* p; }                   p[i] = v
 *   Discard<T>                                 { char unused; }            nothing
 *   TransformOutput<A, It, F>                  { It out; }                 out[i] = F()(v)
 *   ReverseOutput<It>                          { It out; long long last; } out[last - i] = v
 *   PermutationOutput<It, Idx>                 { It out; Idx idx;          out[idx[i]] = v, trapping unless
 *                                                long long bound; }        0 <= idx[i] < bound (bound < 0: none)
 *   ZipOutput<Z, Offsets<o...>, It...>         { Store<It...> s; }         It_k[i] = field k of v
 *
 * Store<I0, I...> is { I0 head; Store<I...> tail; }, Store<I> is { I head; }.
 * It + k is Offset<It> { It it; long long off; } (made inside kernels only).
 * Compiles with CUB 1.17 (CUDA 11.8) and CCCL 3 (CUDA 13).
 */
#pragma once

#include <gocccl/config.cuh>

#include <iterator>
#include <type_traits>

namespace gocccl {
namespace it {

/// Marks gocccl iterators for the free operator+ and operator*.
struct Tag
{};

#define GOCCCL_ITERATOR(V)                                  \
  using value_type        = V;                              \
  using difference_type   = long long;                      \
  using pointer           = V*;                             \
  using reference         = V;                              \
  using iterator_category = std::random_access_iterator_tag; \
  using gocccl_iterator   = Tag;

/// It shifted by off: what It + off is.
template <typename It>
struct Offset
{
  GOCCCL_ITERATOR(typename It::value_type)
  It it;
  long long off;

  __device__ __forceinline__ auto operator[](long long i) const -> decltype(it[i]) { return it[off + i]; }
};

template <typename It, typename = typename It::gocccl_iterator>
__device__ __forceinline__ Offset<It> operator+(const It& it, long long k)
{
  return Offset<It>{it, k};
}

template <typename It>
__device__ __forceinline__ Offset<It> operator+(const Offset<It>& o, long long k)
{
  return Offset<It>{o.it, o.off + k};
}

template <typename It, typename = typename It::gocccl_iterator>
__device__ __forceinline__ auto operator*(const It& it) -> decltype(it[0])
{
  return it[0];
}

/// A device buffer read inside a composition.
template <typename T>
struct Pointer
{
  GOCCCL_ITERATOR(T)
  const T* p;
  __device__ __forceinline__ T operator[](long long i) const { return p[i]; }
};

namespace detail {

template <typename T, bool INTEGRAL = std::is_integral<T>::value>
struct CountingAdd
{
  // Floats: start + T(i), rounded as Go converts an int64.
  static __device__ __forceinline__ T at(T start, long long i) { return start + static_cast<T>(i); }
};

template <typename T>
struct CountingAdd<T, true>
{
  // Integers: wrapping, as Go's.
  using U = typename std::make_unsigned<T>::type;
  static __device__ __forceinline__ T at(T start, long long i)
  {
    return static_cast<T>(static_cast<U>(static_cast<U>(start) + static_cast<U>(static_cast<unsigned long long>(i))));
  }
};

template <>
struct CountingAdd<bool, true>; // not a counting type

__device__ __forceinline__ unsigned long long mix64(unsigned long long z)
{
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// iter.ShuffleAt: the same permutation as the CPU backend's.
__device__ __forceinline__ long long shuffle_at(long long n, unsigned long long seed, long long i)
{
  constexpr int ROUNDS = 6;
  unsigned bits = 2;
  while (bits < 62 && (1ll << bits) < n)
  {
    ++bits;
  }
  if (bits % 2 == 1)
  {
    ++bits;
  }
  const unsigned half = bits / 2;
  const unsigned long long mask = (1ull << half) - 1;
  unsigned long long x = static_cast<unsigned long long>(i);
  for (;;)
  {
    unsigned long long l = x >> half, r = x & mask;
#pragma unroll
    for (int round = 0; round < ROUNDS; ++round)
    {
      const unsigned long long f = mix64(r ^ mix64(seed + static_cast<unsigned long long>(round))) & mask;
      const unsigned long long nl = r;
      r = l ^ f;
      l = nl;
    }
    x = (l << half) | r;
    if (x < static_cast<unsigned long long>(n))
    {
      return static_cast<long long>(x);
    }
  }
}

/// Loads with a cache modifier: MODE 1 streaming, 2 L2 only, 3 volatile.
template <int MODE, typename T>
__device__ __forceinline__ T load_modified(const T* p)
{
  T v;
  if constexpr (sizeof(T) % 4 == 0 && alignof(T) >= 4)
  {
    unsigned int w[sizeof(T) / 4];
    const unsigned int* q = reinterpret_cast<const unsigned int*>(p);
#pragma unroll
    for (int k = 0; k < int(sizeof(T) / 4); ++k)
    {
      if constexpr (MODE == 1)
      {
        w[k] = __ldcs(q + k);
      }
      else if constexpr (MODE == 2)
      {
        w[k] = __ldcg(q + k);
      }
      else
      {
        w[k] = *(reinterpret_cast<const volatile unsigned int*>(q) + k);
      }
    }
    memcpy(&v, w, sizeof(T));
  }
  else
  {
    unsigned char b[sizeof(T)];
    const unsigned char* q = reinterpret_cast<const unsigned char*>(p);
#pragma unroll
    for (int k = 0; k < int(sizeof(T)); ++k)
    {
      if constexpr (MODE == 1)
      {
        b[k] = __ldcs(q + k);
      }
      else if constexpr (MODE == 2)
      {
        b[k] = __ldcg(q + k);
      }
      else
      {
        b[k] = *(reinterpret_cast<const volatile unsigned char*>(q) + k);
      }
    }
    memcpy(&v, b, sizeof(T));
  }
  return v;
}

} // namespace detail

template <typename T>
struct Counting
{
  GOCCCL_ITERATOR(T)
  T start;
  __device__ __forceinline__ T operator[](long long i) const { return detail::CountingAdd<T>::at(start, i); }
};

template <typename T>
struct Constant
{
  GOCCCL_ITERATOR(T)
  T value;
  __device__ __forceinline__ T operator[](long long) const { return value; }
};

struct Shuffle
{
  GOCCCL_ITERATOR(long long)
  long long n;
  unsigned long long seed;
  __device__ __forceinline__ long long operator[](long long i) const { return detail::shuffle_at(n, seed, i); }
};

template <typename V, typename It, typename F>
struct Transform
{
  GOCCCL_ITERATOR(V)
  It in;
  __device__ __forceinline__ V operator[](long long i) const { return F()(in[i]); }
};

/// Index j of a Permutation: traps (the launch fails, and the runtime names
/// the instance) unless 0 <= j < bound, the length of what it indexes, as
/// the CPU backend returns an error; bound < 0 (values without a length of
/// their own, such as a Counting) checks nothing.
template <typename I>
__device__ __forceinline__ long long permuted(I j, long long bound)
{
  static_assert(std::is_integral<I>::value, "permutation indices are integers");
  // A negative j converts to at least 2^63, never below a bound >= 0.
  if (bound >= 0 && static_cast<unsigned long long>(static_cast<long long>(j)) >= static_cast<unsigned long long>(bound))
  {
    __trap();
  }
  return static_cast<long long>(j);
}

template <typename It, typename Idx>
struct Permutation
{
  GOCCCL_ITERATOR(typename It::value_type)
  It values;
  Idx idx;
  long long bound; // the number of values, or -1
  __device__ __forceinline__ value_type operator[](long long i) const { return values[permuted(idx[i], bound)]; }
};

/// Permutation over a plain index or value buffer keeps the pointer's type.
template <typename T, typename Idx>
struct Permutation<Pointer<T>, Idx>
{
  GOCCCL_ITERATOR(T)
  Pointer<T> values;
  Idx idx;
  long long bound; // the number of values
  __device__ __forceinline__ T operator[](long long i) const { return values.p[permuted(idx[i], bound)]; }
};

template <typename It>
struct Reverse
{
  GOCCCL_ITERATOR(typename It::value_type)
  It in;
  long long last;
  __device__ __forceinline__ value_type operator[](long long i) const { return in[last - i]; }
};

template <int... O>
struct Offsets
{};

template <typename... Its>
struct Store;

template <typename I>
struct Store<I>
{
  I head;
  template <int O>
  __device__ __forceinline__ void read(unsigned char* z, long long i) const
  {
    const typename I::value_type v = head[i];
    memcpy(z + O, &v, sizeof(v));
  }
  template <int O>
  __device__ __forceinline__ void write(const unsigned char* z, long long i) const
  {
    typename I::value_type v;
    memcpy(&v, z + O, sizeof(v));
    head[i] = v;
  }
};

template <typename I, typename... R>
struct Store<I, R...>
{
  I head;
  Store<R...> tail;
  template <int O, int... Os>
  __device__ __forceinline__ void read(unsigned char* z, long long i) const
  {
    const typename I::value_type v = head[i];
    memcpy(z + O, &v, sizeof(v));
    tail.template read<Os...>(z, i);
  }
  template <int O, int... Os>
  __device__ __forceinline__ void write(const unsigned char* z, long long i) const
  {
    typename I::value_type v;
    memcpy(&v, z + O, sizeof(v));
    head[i] = v;
    tail.template write<Os...>(z, i);
  }
};

template <typename Z, typename Offs, typename... Its>
struct Zip;

template <typename Z, int... Os, typename... Its>
struct Zip<Z, Offsets<Os...>, Its...>
{
  GOCCCL_ITERATOR(Z)
  Store<Its...> s;
  __device__ __forceinline__ Z operator[](long long i) const
  {
    Z z;
    s.template read<Os...>(reinterpret_cast<unsigned char*>(&z), i);
    return z;
  }
};

template <typename T, int MODE>
struct CacheModified
{
  GOCCCL_ITERATOR(T)
  const T* p;
  __device__ __forceinline__ T operator[](long long i) const { return detail::load_modified<MODE>(p + i); }
};

// ---------------------------------------------------------------------------
// Outputs: operator[] returns a proxy whose assignment stores.

/// A device buffer written inside a composition.
template <typename T>
struct OutPointer
{
  GOCCCL_ITERATOR(T)
  T* p;
  __device__ __forceinline__ T& operator[](long long i) const { return p[i]; }
};

template <typename T>
struct Discard
{
  GOCCCL_ITERATOR(T)
  char unused;
  struct Ref
  {
    __device__ __forceinline__ const Ref& operator=(const T&) const { return *this; }
  };
  __device__ __forceinline__ Ref operator[](long long) const { return Ref{}; }
};

template <typename A, typename It, typename F>
struct TransformOutput
{
  GOCCCL_ITERATOR(A)
  It out;
  struct Ref
  {
    It out;
    long long i;
    __device__ __forceinline__ const Ref& operator=(const A& v) const
    {
      out[i] = F()(v);
      return *this;
    }
  };
  __device__ __forceinline__ Ref operator[](long long i) const { return Ref{out, i}; }
};

template <typename It>
struct ReverseOutput
{
  GOCCCL_ITERATOR(typename It::value_type)
  It out;
  long long last;
  __device__ __forceinline__ auto operator[](long long i) const -> decltype(out[0]) { return out[last - i]; }
};

template <typename It, typename Idx>
struct PermutationOutput
{
  GOCCCL_ITERATOR(typename It::value_type)
  It out;
  Idx idx;
  long long bound; // the number of elements of out, or -1
  __device__ __forceinline__ auto operator[](long long i) const -> decltype(out[0])
  {
    return out[permuted(idx[i], bound)];
  }
};

template <typename Z, typename Offs, typename... Its>
struct ZipOutput;

template <typename Z, int... Os, typename... Its>
struct ZipOutput<Z, Offsets<Os...>, Its...>
{
  GOCCCL_ITERATOR(Z)
  Store<Its...> s;
  struct Ref
  {
    Store<Its...> s;
    long long i;
    __device__ __forceinline__ const Ref& operator=(const Z& z) const
    {
      s.template write<Os...>(reinterpret_cast<const unsigned char*>(&z), i);
      return *this;
    }
  };
  __device__ __forceinline__ Ref operator[](long long i) const { return Ref{s, i}; }
};

#undef GOCCCL_ITERATOR

} // namespace it
} // namespace gocccl
