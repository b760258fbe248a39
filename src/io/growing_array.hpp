#pragma once
// An array of plain values that grows by realloc. For speed and memory only: past glibc's
// mapping threshold (32 MB, as main sets it) realloc moves a block by remapping its pages instead
// of copying them, so an array grown to hundreds of MB (a saved state's numbers, read line by
// line) is neither copied nor held twice while it grows, where std::vector copies into a new block
// at every doubling (reading a saved 1,000,000-sphere state: 10.5-12.1 s against 11.7-15.5 s).
// Below the threshold realloc copies as a vector does.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace stepwise {

template <class T>
class GrowingArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
  static_assert(alignof(T) <= alignof(std::max_align_t));  // (what realloc's blocks give)

 public:
  GrowingArray() = default;
  GrowingArray(const GrowingArray& other) {
    reserve(other.size_);
    if (other.size_ > 0) std::memcpy(data_, other.data_, other.size_ * sizeof(T));
    size_ = other.size_;
  }
  GrowingArray(GrowingArray&& other) noexcept { swap(other); }
  GrowingArray& operator=(GrowingArray other) noexcept {  // (a copy or a move, then swapped)
    swap(other);
    return *this;
  }
  ~GrowingArray() { std::free(data_); }

  void push_back(const T& value) {
    if (size_ == capacity_) {
      const T copy = value;  // (value may be one of this array's own)
      reserve(capacity_ > 0 ? 2 * capacity_ : 64);
      data_[size_++] = copy;
      return;
    }
    data_[size_++] = value;
  }
  void reserve(std::size_t count) {
    if (count <= capacity_) return;
    if (count > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    void* grown = std::realloc(data_, count * sizeof(T));
    if (!grown) throw std::bad_alloc();
    data_ = static_cast<T*>(grown);
    capacity_ = count;
  }
  void clear() { size_ = 0; }
  void swap(GrowingArray& other) noexcept {
    std::swap(data_, other.data_), std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }
  const T& at(std::size_t i) const {
    if (i >= size_) throw std::out_of_range("GrowingArray::at");
    return data_[i];
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0, capacity_ = 0;
};

}  // namespace stepwise
