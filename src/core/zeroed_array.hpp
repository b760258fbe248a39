#pragma once
// An array of plain rows (all bits zero is each row's empty value) that is all zero when sized.
// For memory only: a large one comes from calloc, which glibc serves from a fresh mapping whose
// pages the kernel supplies, zeroed, when first touched, so rows a run never touches take no
// memory (the wall springs of bodies away from the walls, the springs of pairs that never touched,
// the load rows of bodies no contact reaches: 1,000,000 spheres falling took 823 MB at peak, now
// 549). std::vector writes every row.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace stepwise {

template <class T>
class ZeroedArray {
  // Rows are copied and zeroed as bytes (Eigen's fixed vectors are, though not declared
  // trivially copyable).
  static_assert(std::is_trivially_destructible_v<T> && std::is_standard_layout_v<T>);
  static_assert(alignof(T) <= 64);

 public:
  ZeroedArray() = default;
  ZeroedArray(const ZeroedArray& other) { copy_from(other); }
  ZeroedArray(ZeroedArray&& other) noexcept { swap(other); }
  ZeroedArray& operator=(const ZeroedArray& other) {
    if (this != &other) copy_from(other);
    return *this;
  }
  ZeroedArray& operator=(ZeroedArray&& other) noexcept {
    swap(other);
    return *this;
  }
  ~ZeroedArray() { std::free(raw_); }

  // n rows, every one zero (a new allocation: the old rows' memory goes back).
  void assign_zero(std::size_t n) {
    clear();
    if (n == 0) return;
    if (n > (SIZE_MAX - 64) / sizeof(T)) throw std::bad_alloc();
    raw_ = std::calloc(n * sizeof(T) + 64, 1);  // (64 more: rows start on a cache line)
    if (!raw_) throw std::bad_alloc();
    const auto at = (reinterpret_cast<std::uintptr_t>(raw_) + 63) & ~std::uintptr_t{63};
    data_ = reinterpret_cast<T*>(at);
    size_ = n;
  }
  void clear() {
    std::free(raw_);
    raw_ = nullptr, data_ = nullptr, size_ = 0;
  }
  void swap(ZeroedArray& other) noexcept {
    std::swap(raw_, other.raw_), std::swap(data_, other.data_), std::swap(size_, other.size_);
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

 private:
  // (A copy is written whole: skipping zero pieces would read them, and on these machines a read
  // of a page never written takes memory as a write does.)
  void copy_from(const ZeroedArray& other) {
    assign_zero(other.size_);
    if (size_) std::memcpy(static_cast<void*>(data_), other.data_, size_ * sizeof(T));
  }

  void* raw_ = nullptr;
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace stepwise
