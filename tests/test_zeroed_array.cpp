// ZeroedArray (core/zeroed_array.hpp): zero when sized, copied whole, and rows never written
// take no memory (the wall springs and contact load rows of a large run).
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "core/contacts/granular_pairs.hpp"
#include "core/zeroed_array.hpp"

using namespace stepwise;

namespace {
// This process's resident size in bytes (Linux), or -1 where it cannot be read.
long long resident_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return -1;
  long long pages = 0, resident = 0;
  const bool read = std::fscanf(f, "%lld %lld", &pages, &resident) == 2;
  std::fclose(f);
  return read ? resident * 4096 : -1;
}
bool all_zero(const void* p, std::size_t bytes) {
  const auto* b = static_cast<const unsigned char*>(p);
  for (std::size_t i = 0; i < bytes; ++i)
    if (b[i] != 0) return false;
  return true;
}
}  // namespace

TEST_CASE("a zeroed array is zero when sized, and copies every row written") {
  ZeroedArray<BodyLoad> rows;
  rows.assign_zero(100000);
  REQUIRE(rows.size() == 100000);
  CHECK(reinterpret_cast<std::uintptr_t>(rows.data()) % 64 == 0);
  CHECK(all_zero(rows.data(), rows.size() * sizeof(BodyLoad)));
  // Rows written far apart and at both ends.
  for (std::size_t i :
       {std::size_t{0}, std::size_t{1}, std::size_t{500}, std::size_t{77777}, std::size_t{99999}})
    for (int k = 0; k < 12; ++k) rows[i].row()[k] = double(i) + 0.25 * k + 1;
  ZeroedArray<BodyLoad> copy(rows);
  REQUIRE(copy.size() == rows.size());
  CHECK(std::memcmp(copy.data(), rows.data(), rows.size() * sizeof(BodyLoad)) == 0);
  ZeroedArray<BodyLoad> assigned;
  assigned.assign_zero(3);
  assigned[2].force[0] = 5;  // overwritten whole by the assignment
  assigned = copy;
  CHECK(std::memcmp(assigned.data(), rows.data(), rows.size() * sizeof(BodyLoad)) == 0);
  // Sized again: zero again, written rows and all.
  rows.assign_zero(100000);
  CHECK(all_zero(rows.data(), rows.size() * sizeof(BodyLoad)));
  ZeroedArray<Spring> moved(ZeroedArray<Spring>{});
  CHECK(moved.empty());
}

TEST_CASE("rows of a zeroed array that are never written take no memory") {
  const long long before = resident_bytes();
  if (before < 0) return;  // (no /proc: nothing to measure)
  // 256 MB of wall springs, as a run of some 1,700,000 spheres in a five-walled box has, of
  // which the bodies at the walls write a few.
  ZeroedArray<Spring> springs;
  springs.assign_zero(std::size_t{8} << 20);
  for (std::size_t i = 0; i < springs.size(); i += springs.size() / 64) springs[i].kt = 1;
  const long long grown = resident_bytes() - before;
  INFO("resident size grew by " << grown << " bytes");
  CHECK(grown < (32LL << 20));  // every row written: 256 MB (signed: the size may also shrink)
}
