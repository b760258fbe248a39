#pragma once
// Four doubles computed side by side (GCC vector extensions): AVX registers where the build
// targets AVX, pairs of SSE2 registers otherwise. Every operation is IEEE-exact per lane, so the
// results do not depend on which instructions carry them.
#include <cmath>
#ifdef __AVX__
#include <immintrin.h>
#endif

namespace stepwise::lanes {

using D4 = double __attribute__((vector_size(32)));
using M4 = long long __attribute__((vector_size(32)));  // per-lane masks: all ones or zero

// Lanes i..l of the eight in (a, b), in GCC's and clang's spelling (the fuzz build is clang's).
#if defined(__clang__)
#define STEPWISE_SHUFFLE4(a, b, i, j, k, l) __builtin_shufflevector(a, b, i, j, k, l)
#else
#define STEPWISE_SHUFFLE4(a, b, i, j, k, l) __builtin_shuffle(a, b, M4{i, j, k, l})
#endif

// Asks the memory for the cache line holding p, for speed only (no number depends on it). As asm
// because GCC 12 dropped __builtin_prefetch calls made from the kernels' lambdas and from loops
// doing nothing else (none were left in the compiled kernels).
[[gnu::always_inline]] inline void prefetch(const void* p) {
#if defined(__x86_64__) || defined(__i386__)
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p);
#endif
}

inline D4 splat(double a) {
  return D4{a, a, a, a};
}
inline D4 select(M4 mask, D4 yes, D4 no) {
  return mask ? yes : no;
}
inline D4 abs(D4 a) {
  return a < 0 ? -a : a;
}
inline D4 sqrt(D4 a) {
#ifdef __AVX__
  return _mm256_sqrt_pd(a);
#else
  return D4{std::sqrt(a[0]), std::sqrt(a[1]), std::sqrt(a[2]), std::sqrt(a[3])};
#endif
}
// Bit l set if lane l of the mask is.
inline int mask_bits(M4 m) {
#ifdef __AVX__
  return _mm256_movemask_pd(reinterpret_cast<__m256d>(m));
#else
  return int(m[0] & 1) | int(m[1] & 1) << 1 | int(m[2] & 1) << 2 | int(m[3] & 1) << 3;
#endif
}
inline bool all_lanes(M4 m) {
  return mask_bits(m) == 15;
}
inline double sum(D4 a) {
  return (a[0] + a[1]) + (a[2] + a[3]);
}
inline D4 load(const double* p) {
  D4 v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
inline void store(double* p, D4 v) {
  __builtin_memcpy(p, &v, sizeof v);
}

// Rows r0..r3 become columns: afterwards r_k holds element k of each original row.
inline void transpose(D4& r0, D4& r1, D4& r2, D4& r3) {
  const D4 t0 = STEPWISE_SHUFFLE4(r0, r1, 0, 4, 2, 6),
           t1 = STEPWISE_SHUFFLE4(r0, r1, 1, 5, 3, 7);
  const D4 t2 = STEPWISE_SHUFFLE4(r2, r3, 0, 4, 2, 6),
           t3 = STEPWISE_SHUFFLE4(r2, r3, 1, 5, 3, 7);
  r0 = STEPWISE_SHUFFLE4(t0, t2, 0, 1, 4, 5);
  r1 = STEPWISE_SHUFFLE4(t1, t3, 0, 1, 4, 5);
  r2 = STEPWISE_SHUFFLE4(t0, t2, 2, 3, 6, 7);
  r3 = STEPWISE_SHUFFLE4(t1, t3, 2, 3, 6, 7);
}

struct V3 {
  D4 x, y, z;
};
inline V3 operator+(const V3& a, const V3& b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
inline V3 operator-(const V3& a, const V3& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
inline V3 operator-(const V3& a) {
  return {-a.x, -a.y, -a.z};
}
inline V3 operator*(D4 s, const V3& a) {
  return {s * a.x, s * a.y, s * a.z};
}
inline D4 dot(const V3& a, const V3& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline V3 cross(const V3& a, const V3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline V3 select(M4 mask, const V3& yes, const V3& no) {
  return {mask ? yes.x : no.x, mask ? yes.y : no.y, mask ? yes.z : no.z};
}

// Four bodies' 3-vectors as Eigen stores them (x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3) into
// lanes, and back.
inline V3 xyz_lanes(D4 a, D4 b, D4 c) {  // the three stored quads a, b, c into lanes
  return {STEPWISE_SHUFFLE4(STEPWISE_SHUFFLE4(a, b, 0, 3, 6, 6), c, 0, 1, 2, 5),
          STEPWISE_SHUFFLE4(STEPWISE_SHUFFLE4(a, b, 1, 4, 7, 7), c, 0, 1, 2, 6),
          STEPWISE_SHUFFLE4(STEPWISE_SHUFFLE4(a, b, 2, 5, 5, 5), c, 0, 1, 4, 7)};
}
inline V3 load_xyz(const double* p) {
  return xyz_lanes(load(p), load(p + 4), load(p + 8));
}
inline void store_xyz(double* p, const V3& v) {
  store(p, STEPWISE_SHUFFLE4(STEPWISE_SHUFFLE4(v.x, v.y, 0, 4, 1, 1), v.z, 0, 1, 4, 2));
  store(p + 4, STEPWISE_SHUFFLE4(STEPWISE_SHUFFLE4(v.y, v.z, 1, 5, 2, 2), v.x, 0, 1, 6, 2));
  store(p + 8, STEPWISE_SHUFFLE4(STEPWISE_SHUFFLE4(v.z, v.x, 2, 7, 3, 3), v.y, 0, 1, 7, 2));
}

// Four bodies' 3-vectors as stored (x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3), for arithmetic
// that needs no lanes: element by element, without load_xyz's shuffles.
struct Stored {
  D4 first, second, third;
};
inline Stored load_stored(const double* p) {
  return {load(p), load(p + 4), load(p + 8)};
}
inline void store_stored(double* p, const Stored& v) {
  store(p, v.first), store(p + 4, v.second), store(p + 8, v.third);
}
inline Stored operator+(const Stored& a, const Stored& b) {
  return {a.first + b.first, a.second + b.second, a.third + b.third};
}
inline Stored operator*(const Stored& a, const Stored& b) {
  return {a.first * b.first, a.second * b.second, a.third * b.third};
}
inline Stored operator*(D4 s, const Stored& a) {
  return {s * a.first, s * a.second, s * a.third};
}
// Four bodies' scalars (a0 a1 a2 a3) spread as their vectors are stored: a0 a0 a0 a1 | a1 ...
inline Stored spread_xyz(D4 a) {
  return {STEPWISE_SHUFFLE4(a, a, 0, 0, 0, 1), STEPWISE_SHUFFLE4(a, a, 1, 1, 2, 2),
          STEPWISE_SHUFFLE4(a, a, 2, 3, 3, 3)};
}
// The four dot products, summed in dot()'s order: the products as stored, then into lanes.
inline D4 dot(const Stored& a, const Stored& b) {
  const V3 p = xyz_lanes(a.first * b.first, a.second * b.second, a.third * b.third);
  return p.x + p.y + p.z;
}
// One 3-vector (x, y, z) as four bodies' vectors are stored, the same for each.
inline Stored repeat_xyz(double x, double y, double z) {
  return {D4{x, y, z, x}, D4{y, z, x, y}, D4{z, x, y, z}};
}
// |d_k|^2 of four bodies' 3-vectors d as stored, in the order of Eigen's squaredNorm: the
// squares as stored, then into lanes.
inline D4 squared_norms(const Stored& d) {
  const V3 s = xyz_lanes(d.first * d.first, d.second * d.second, d.third * d.third);
  return (s.x + s.y) + s.z;
}
// |(a_k - b_k) - c|^2 of four bodies' 3-vectors as stored at a and b, c repeated (repeat_xyz).
inline D4 squared_distances(const double* a, const double* b, const Stored& c) {
  return squared_norms({(load(a) - load(b)) - c.first, (load(a + 4) - load(b + 4)) - c.second,
                        (load(a + 8) - load(b + 8)) - c.third});
}
// |a_k - c|^2 for c repeated.
inline D4 squared_distances(const double* a, const Stored& c) {
  return squared_norms({load(a) - c.first, load(a + 4) - c.second, load(a + 8) - c.third});
}

}  // namespace stepwise::lanes
