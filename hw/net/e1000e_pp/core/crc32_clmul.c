/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86-64 fast paths for net.c (the build compiles crc32_clmul_stub.c
 * instead elsewhere): CRC-32 by carry-less multiplication when the CPU
 * has PCLMULQDQ (VEX-encoded when it also has AVX, which saves the
 * register copies SSE's two-operand forms need; two lanes per
 * instruction when it has VPCLMULQDQ), and the Internet checksum's bulk
 * with AVX2. Both are chosen at run time.
 */
#include <immintrin.h>

#include "compiler.h"
#include "net.h"

/*
 * Carry-less multiplication folding (Gopal et al., "Fast CRC Computation
 * for Generic Polynomials Using PCLMULQDQ", Intel 2009), for the
 * reflected 802.3 polynomial: four 128-bit lanes fold 64 bytes per step
 * by x^(512+-64) mod P, then one lane, then a Barrett reduction to 32
 * bits. The constants are x^k mod P for the fold distances, mu, and P.
 * len is at least 64; its last 1-15 bytes, if any, are one more fold
 * (crc32_finish). About 0.1 cycle per byte of
 * work instead of 1 for the table: a 9 KB FCS costs ~0.4 us, not 3.7.
 */
#define FOLD_4X128_LO   0x154442bd4ull  /* x^(4*128+32) mod P, reflected */
#define FOLD_4X128_HI   0x1c6e41596ull  /* x^(4*128-32) mod P */
#define FOLD_128_LO     0x1751997d0ull  /* x^(128+32) mod P */
#define FOLD_128_HI     0x0ccaa009eull  /* x^(128-32) mod P */
#define FOLD_64         0x163cd6124ull  /* x^64 mod P */
#define BARRETT_P       0x1db710641ull  /* P, reflected, with x^32 */
#define BARRETT_MU      0x1f7011641ull  /* floor(x^64 / P), reflected */

/* One 128-bit lane folded forward by k's distance, plus the next data. */
__attribute__((target("pclmul"), always_inline))
static inline __m128i fold(__m128i x, __m128i k, __m128i data)
{
    __m128i lo = _mm_clmulepi64_si128(x, k, 0x00);
    __m128i hi = _mm_clmulepi64_si128(x, k, 0x11);

    return _mm_xor_si128(_mm_xor_si128(hi, lo), data);
}

static inline __m128i load128(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)p);
}

/*
 * pshufb controls for a tail of r bytes (an index with bit 7 set gives
 * 0): the 16 bytes at shift_tab + r move byte j - 16 + r of a lane to j
 * (its first r bytes to its top), those at shift_tab + 16 + r byte j + r
 * to j (its last 16 - r bytes to its bottom).
 */
static const uint8_t shift_tab[48] = {
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
};

/*
 * The last r (1-15) bytes, ending at end: the lane x holds the 16 bytes
 * before them. Its first r bytes, with zeros in front, are a whole block
 * 16 bytes ahead of the block made of its other 16 - r bytes and the r
 * new ones, so one fold joins them (leading zeros add nothing to a CRC).
 * The new bytes are the top of the message's last 16, which overlap
 * bytes already folded (len >= 64 leaves room before them).
 */
__attribute__((target("pclmul,sse4.1"), always_inline))
static inline __m128i fold_tail(__m128i x, __m128i k1, const uint8_t *end,
                                size_t r)
{
    /* Byte j of "ahead" is x[j - 16 + r] (0 below), of "rest" x[j + r]. */
    __m128i up = load128(shift_tab + r);
    __m128i down = load128(shift_tab + 16 + r);
    __m128i ahead = _mm_shuffle_epi8(x, up);
    __m128i rest = _mm_shuffle_epi8(x, down);

    /* up has bit 7 set exactly where rest keeps a byte of x. */
    return fold(ahead, k1, _mm_blendv_epi8(load128(end - 16), rest, up));
}

/*
 * The last step of every variant: the four lanes (x0 first in the data)
 * folded into one, the 16-byte blocks left and a shorter tail, then
 * 128 -> 32 bits.
 */
__attribute__((target("pclmul,sse4.1"), always_inline))
static inline uint32_t crc32_finish(__m128i x0, __m128i x1, __m128i x2,
                                    __m128i x3, const uint8_t *p, size_t len)
{
    const __m128i k1 = _mm_set_epi64x(FOLD_128_HI, FOLD_128_LO);
    const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);
    __m128i t, k;

    x0 = fold(x0, k1, x1);
    x0 = fold(x0, k1, x2);
    x0 = fold(x0, k1, x3);
    while (len >= 16) {
        x0 = fold(x0, k1, load128(p));
        p += 16;
        len -= 16;
    }
    if (len) {
        x0 = fold_tail(x0, k1, p + len, len);
    }
    /* 128 -> 64 bits (appending 32 zero bits), then 64 -> 32. */
    t = _mm_clmulepi64_si128(k1, x0, 0x01);
    x0 = _mm_xor_si128(_mm_srli_si128(x0, 8), t);
    t = _mm_srli_si128(x0, 4);
    k = _mm_set_epi64x(0, FOLD_64);
    x0 = _mm_clmulepi64_si128(_mm_and_si128(x0, mask32), k, 0x00);
    x0 = _mm_xor_si128(x0, t);
    /* Barrett: q = (low32 * mu) mod x^32, remainder = x ^ q * P. */
    k = _mm_set_epi64x(BARRETT_MU, BARRETT_P);
    t = x0;
    x0 = _mm_clmulepi64_si128(_mm_and_si128(x0, mask32), k, 0x10);
    x0 = _mm_clmulepi64_si128(_mm_and_si128(x0, mask32), k, 0x00);
    x0 = _mm_xor_si128(x0, t);
    return (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(x0, 4));
}

/*
 * The four lanes are separate variables, not an array: they stay in
 * registers, so a 64-byte step is its eight multiplications, loads and
 * xors (about 0.4 instructions a byte, a third of the array version).
 */
__attribute__((target("pclmul,sse4.1"), always_inline))
static inline uint32_t crc32_fold(uint32_t crc, const uint8_t *p, size_t len)
{
    const __m128i k4 = _mm_set_epi64x(FOLD_4X128_HI, FOLD_4X128_LO);
    __m128i x0, x1, x2, x3;

    x0 = _mm_xor_si128(load128(p), _mm_cvtsi32_si128((int)crc));
    x1 = load128(p + 16);
    x2 = load128(p + 32);
    x3 = load128(p + 48);
    p += 64;
    len -= 64;
    /* Four steps a round: the loop's own three instructions per 256. */
    while (len >= 256) {
        x0 = fold(x0, k4, load128(p));
        x1 = fold(x1, k4, load128(p + 16));
        x2 = fold(x2, k4, load128(p + 32));
        x3 = fold(x3, k4, load128(p + 48));
        x0 = fold(x0, k4, load128(p + 64));
        x1 = fold(x1, k4, load128(p + 80));
        x2 = fold(x2, k4, load128(p + 96));
        x3 = fold(x3, k4, load128(p + 112));
        x0 = fold(x0, k4, load128(p + 128));
        x1 = fold(x1, k4, load128(p + 144));
        x2 = fold(x2, k4, load128(p + 160));
        x3 = fold(x3, k4, load128(p + 176));
        x0 = fold(x0, k4, load128(p + 192));
        x1 = fold(x1, k4, load128(p + 208));
        x2 = fold(x2, k4, load128(p + 224));
        x3 = fold(x3, k4, load128(p + 240));
        p += 256;
        len -= 256;
    }
    while (len >= 64) {
        x0 = fold(x0, k4, load128(p));
        x1 = fold(x1, k4, load128(p + 16));
        x2 = fold(x2, k4, load128(p + 32));
        x3 = fold(x3, k4, load128(p + 48));
        p += 64;
        len -= 64;
    }
    return crc32_finish(x0, x1, x2, x3, p, len);
}

/*
 * The same four lanes two to a 256-bit register (VPCLMULQDQ multiplies
 * both halves at once, by the same constants): a 64-byte step is four
 * multiplications, two loads folded into two xors and two more xors,
 * half the 128-bit count. Not unrolled: valgrind cannot count this
 * path, and on the CPU the loop's three instructions run beside the
 * multiplications.
 */
__attribute__((target("pclmul,avx2,vpclmulqdq"), always_inline))
static inline __m256i fold2(__m256i x, __m256i k, __m256i data)
{
    __m256i lo = _mm256_clmulepi64_epi128(x, k, 0x00);
    __m256i hi = _mm256_clmulepi64_epi128(x, k, 0x11);

    return _mm256_xor_si256(_mm256_xor_si256(hi, lo), data);
}

__attribute__((target("avx2"), always_inline))
static inline __m256i load256(const uint8_t *p)
{
    return _mm256_loadu_si256((const __m256i *)p);
}

__attribute__((target("pclmul,avx2,vpclmulqdq"), noinline))
static uint32_t crc32_fold_vpclmul(uint32_t crc, const uint8_t *p,
                                   size_t len)
{
    const __m256i k4 = _mm256_set_epi64x(FOLD_4X128_HI, FOLD_4X128_LO,
                                         FOLD_4X128_HI, FOLD_4X128_LO);
    __m256i x01, x23;

    /* Lanes 0 and 1 are bytes 0-31, lanes 2 and 3 bytes 32-63. */
    x01 = _mm256_xor_si256(load256(p), _mm256_set_epi32(0, 0, 0, 0, 0, 0,
                                                        0, (int)crc));
    x23 = load256(p + 32);
    p += 64;
    len -= 64;
    while (len >= 64) {
        x01 = fold2(x01, k4, load256(p));
        x23 = fold2(x23, k4, load256(p + 32));
        p += 64;
        len -= 64;
    }
    return crc32_finish(_mm256_castsi256_si128(x01),
                        _mm256_extracti128_si256(x01, 1),
                        _mm256_castsi256_si128(x23),
                        _mm256_extracti128_si256(x23, 1), p, len);
}

/* The same code compiled twice: with AVX's three-operand encodings... */
__attribute__((target("pclmul,avx"), noinline))
static uint32_t crc32_fold_avx(uint32_t crc, const uint8_t *p, size_t len)
{
    return crc32_fold(crc, p, len);
}

/* ...and with SSE alone, for CPUs with PCLMULQDQ but not AVX. */
__attribute__((target("pclmul,sse4.1"), noinline))
static uint32_t crc32_fold_sse(uint32_t crc, const uint8_t *p, size_t len)
{
    return crc32_fold(crc, p, len);
}

/* The widest folding variant the CPU runs (0: none), asked once. */
static int clmul_variant = -1;
static bool avx2_usable;

static void cpu_probe(void)
{
    __builtin_cpu_init();
    avx2_usable = __builtin_cpu_supports("avx2");
    if (!__builtin_cpu_supports("pclmul") ||
        !__builtin_cpu_supports("sse4.1")) {
        clmul_variant = 0;
    } else if (avx2_usable && __builtin_cpu_supports("vpclmulqdq")) {
        clmul_variant = 3;
    } else {
        clmul_variant = __builtin_cpu_supports("avx") ? 2 : 1;
    }
}

unsigned e1000e_pp_crc32_clmul_variants(void)
{
    if (clmul_variant < 0) {
        cpu_probe();
    }
    return (unsigned)clmul_variant;
}

uint32_t e1000e_pp_crc32_clmul_variant(unsigned v, uint32_t crc,
                                       const uint8_t *p, size_t len)
{
    switch (v) {
    case 3:
        return crc32_fold_vpclmul(crc, p, len);
    case 2:
        return crc32_fold_avx(crc, p, len);
    default:
        return crc32_fold_sse(crc, p, len);
    }
}

uint32_t e1000e_pp_crc32_clmul(uint32_t crc, const uint8_t *p, size_t len)
{
    return e1000e_pp_crc32_clmul_variant((unsigned)clmul_variant, crc, p,
                                         len);
}

bool e1000e_pp_csum_simd_usable(void)
{
    if (clmul_variant < 0) {
        cpu_probe();
    }
    return avx2_usable;
}

/*
 * Sum of the little-endian 16-bit words of p (len a multiple of 32), as
 * an integer. VPMADDWD adds pairs of signed words; flipping each word's
 * top bit makes its signed value exactly the unsigned word minus 0x8000,
 * so a pair's result is u0 + u1 - 0x10000 and the true sum is the lane
 * total plus 0x10000 per pair. The flip is one XOR with the load folded
 * in: 3 instructions per 32 bytes, and 3 more per 256-byte step for the
 * loop. A step moves a lane by at most 8 * 0x10000, so lanes are emptied
 * every 2^11 steps.
 */
#define CSUM_STEP       256
#define CSUM_STEPS      (1u << 11)

__attribute__((target("avx2"), always_inline))
static inline __m256i csum_pairs(const uint8_t *p)
{
    const __m256i flip = _mm256_set1_epi16((short)0x8000);
    const __m256i ones = _mm256_set1_epi16(1);

    return _mm256_madd_epi16(_mm256_xor_si256(flip,
                                 _mm256_loadu_si256((const __m256i *)p)),
                             ones);
}

__attribute__((target("avx2")))
uint64_t e1000e_pp_csum_simd(const uint8_t *p, size_t len)
{
    uint64_t total = (uint64_t)(len / 4) << 16;

    while (len) {
        size_t n = len < (size_t)CSUM_STEP * CSUM_STEPS ? len :
                   (size_t)CSUM_STEP * CSUM_STEPS;
        __m256i acc = _mm256_setzero_si256();
        int32_t lanes[8] E1000E_PP_NOINIT;
        int i;

        len -= n;
        /*
         * The eight products summed as a tree into one accumulator: with
         * four accumulators GCC adds a register copy for each of them.
         */
        for (; n >= CSUM_STEP; n -= CSUM_STEP, p += CSUM_STEP) {
            __m256i t0 = _mm256_add_epi32(csum_pairs(p), csum_pairs(p + 32));
            __m256i t1 = _mm256_add_epi32(csum_pairs(p + 64),
                                          csum_pairs(p + 96));
            __m256i t2 = _mm256_add_epi32(csum_pairs(p + 128),
                                          csum_pairs(p + 160));
            __m256i t3 = _mm256_add_epi32(csum_pairs(p + 192),
                                          csum_pairs(p + 224));

            acc = _mm256_add_epi32(acc, _mm256_add_epi32(
                                   _mm256_add_epi32(t0, t1),
                                   _mm256_add_epi32(t2, t3)));
        }
        for (; n; n -= 32, p += 32) {
            acc = _mm256_add_epi32(acc, csum_pairs(p));
        }
        _mm256_storeu_si256((__m256i *)lanes, acc);
        for (i = 0; i < 8; i++) {
            total += (uint64_t)(int64_t)lanes[i];
        }
    }
    return total;
}
