// gocccl/view.cuh: runtime.View, a read-only view of a device buffer in an
// operator's per-call state. Generated sources include it when a state
// holds a view, so that packages without views do not depend on it.
#pragma once

#include <gocccl/gosem.cuh>

namespace gocccl {
namespace go {

// view is runtime.View[T] of package runtime: a read-only view of a
// buffer in device memory, a field of an operator's per-call state. Its
// layout is the Go struct's, so that the state's bytes are the kernel
// argument as they are: the device address of element 0, the length, and
// a word the Go side uses for the Slice the view was made from, which the
// device never reads. It is a trivial aggregate, so that a state can live
// in __shared__ memory.
template <typename T>
struct view {
  const T* p;
  int64_t n;
  uint64_t go_slice;
};

static_assert(sizeof(view<int>) == 24 && alignof(view<int>) == 8, "layout of View differs from Go's");

// view_at returns element i of v, panicking (trapping) as Go's View.At
// does when i is out of range.
template <typename T, typename I>
GOCCCL_GO_FN T view_at(const view<T>& v, I i) {
  if (!detail::in_range(i, v.n)) {
    detail::index_panic();
  }
  return v.p[i];
}

// view_len returns the number of elements of v, Go's View.Len.
template <typename T>
GOCCCL_GO_FN int64_t view_len(const view<T>& v) {
  return v.n;
}

// Views compare as Go compares the structs: all three words.
template <typename T>
GOCCCL_GO_FN bool operator==(const view<T>& a, const view<T>& b) {
  return a.p == b.p && a.n == b.n && a.go_slice == b.go_slice;
}

template <typename T>
GOCCCL_GO_FN bool operator!=(const view<T>& a, const view<T>& b) {
  return !(a == b);
}

}  // namespace go
}  // namespace gocccl
