// std::vector whose resize leaves new elements of a trivial type uninitialised (default-
// initialised) instead of zeroing them. For large host arrays that several threads fill
// in ranges right after they are sized: zeroed, they cost a serial pass over fresh pages
// first (the analysis's schedule and plan of a three-million-edge triangular solve spent
// more time zeroing their 48 MB of edges than placing them on a 16-core host).
#pragma once

#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace apiary::sparse {

template <class T>
struct UninitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitAllocator<U>;
  };
  UninitAllocator() = default;
  template <class U>
  UninitAllocator(const UninitAllocator<U>&) noexcept {}

  // No arguments: default-initialise (nothing for a trivial type); else as std::allocator.
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    if constexpr (sizeof...(Args) == 0)
      ::new (static_cast<void*>(p)) U;
    else
      ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using UninitVector = std::vector<T, UninitAllocator<T>>;

}  // namespace apiary::sparse
