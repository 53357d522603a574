/* Bit operations on 64-bit card masks for kirifuda's C extensions (the solver's core and
 * Meitora's game core): GCC's and clang's builtins where the compiler has them, portable C
 * elsewhere (MSVC on Windows).  Defining KIRIFUDA_PORTABLE forces the portable C, so that GCC
 * can build and test it (tests/test_solver_core.py).  kf_ctz and kf_clz need x != 0. */
#ifndef KIRIFUDA_BITOPS_H
#define KIRIFUDA_BITOPS_H
#include <stdint.h>

#if (defined(__GNUC__) || defined(__clang__)) && !defined(KIRIFUDA_PORTABLE)
#define kf_popcount(x) __builtin_popcountll(x)
#define kf_ctz(x) __builtin_ctzll(x)
#define kf_clz(x) __builtin_clzll(x)
#define KF_ALWAYS_INLINE inline __attribute__((always_inline))
#define KF_PREFETCH(p) __builtin_prefetch(p)
#else
static inline int kf_popcount(uint64_t x) {
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
/* the lowest set bit's index by a de Bruijn sequence (x & -x isolates the bit) */
static const unsigned char kf_debruijn_index[64] = {
    0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4,
    62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
    63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
    46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6};
static inline int kf_ctz(uint64_t x) {
    return kf_debruijn_index[((x & (0 - x)) * 0x03F79D71B4CB0A89ULL) >> 58];
}
/* leading zeros: every bit below the highest set, then counted */
static inline int kf_clz(uint64_t x) {
    x |= x >> 1; x |= x >> 2; x |= x >> 4; x |= x >> 8; x |= x >> 16; x |= x >> 32;
    return 64 - kf_popcount(x);
}
#define KF_ALWAYS_INLINE inline
#define KF_PREFETCH(p) ((void)(p))
#endif

#endif /* KIRIFUDA_BITOPS_H */
