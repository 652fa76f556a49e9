/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Frame arithmetic shared by the Rx and Tx engines: the Ethernet CRC-32
 * (IEEE 802.3 clause 3.2.9) and the ones'-complement Internet checksum
 * (RFC 1071).
 */
#include "internal.h"

/* Reflected CRC-32, polynomial 0x04C11DB7, slicing by 8 bytes. */
static uint32_t crc_table[8][256];
static bool crc_table_ready;

static void crc_table_init(void)
{
    uint32_t i, k, crc;

    for (i = 0; i < 256; i++) {
        crc = i;
        for (k = 0; k < 8; k++) {
            crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
        }
        crc_table[0][i] = crc;
    }
    for (i = 0; i < 256; i++) {
        for (k = 1; k < 8; k++) {
            crc_table[k][i] = (crc_table[k - 1][i] >> 8) ^
                              crc_table[0][crc_table[k - 1][i] & 0xff];
        }
    }
    crc_table_ready = true;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_CLMUL_CRC 1

/*
 * Carry-less multiplication folding (Gopal et al., "Fast CRC Computation
 * for Generic Polynomials Using PCLMULQDQ", Intel 2009), for the
 * reflected 802.3 polynomial: four 128-bit lanes fold 64 bytes per step
 * by x^(512+-64) mod P, then one lane, then a Barrett reduction to 32
 * bits. The constants are x^k mod P for the fold distances, mu, and P.
 * len is a multiple of 16 and at least 64. About 0.1 byte per cycle of
 * work instead of 1 for the table, so a 9 KB FCS costs ~0.4 us, not 3.7.
 */
#define FOLD_4X128_LO   0x154442bd4ull  /* x^(4*128+32) mod P, reflected */
#define FOLD_4X128_HI   0x1c6e41596ull  /* x^(4*128-32) mod P */
#define FOLD_128_LO     0x1751997d0ull  /* x^(128+32) mod P */
#define FOLD_128_HI     0x0ccaa009eull  /* x^(128-32) mod P */
#define FOLD_64         0x163cd6124ull  /* x^64 mod P */
#define BARRETT_P       0x1db710641ull  /* P, reflected, with x^32 */
#define BARRETT_MU      0x1f7011641ull  /* floor(x^64 / P), reflected */

__attribute__((target("pclmul,sse2")))
static uint32_t crc32_clmul(uint32_t crc, const uint8_t *p, size_t len)
{
    const __m128i k4 = _mm_set_epi64x(FOLD_4X128_HI, FOLD_4X128_LO);
    const __m128i k1 = _mm_set_epi64x(FOLD_128_HI, FOLD_128_LO);
    const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);
    __m128i x[4], t, k;
    int i;

    for (i = 0; i < 4; i++) {
        x[i] = _mm_loadu_si128((const __m128i *)(p + 16 * i));
    }
    x[0] = _mm_xor_si128(x[0], _mm_cvtsi32_si128((int)crc));
    p += 64;
    len -= 64;
    while (len >= 64) {
        for (i = 0; i < 4; i++) {
            t = _mm_clmulepi64_si128(x[i], k4, 0x00);
            x[i] = _mm_clmulepi64_si128(x[i], k4, 0x11);
            x[i] = _mm_xor_si128(_mm_xor_si128(x[i], t),
                                 _mm_loadu_si128((const __m128i *)
                                                 (p + 16 * i)));
        }
        p += 64;
        len -= 64;
    }
    for (i = 1; i < 4; i++) {
        t = _mm_clmulepi64_si128(x[0], k1, 0x00);
        x[0] = _mm_clmulepi64_si128(x[0], k1, 0x11);
        x[0] = _mm_xor_si128(_mm_xor_si128(x[0], t), x[i]);
    }
    while (len >= 16) {
        t = _mm_clmulepi64_si128(x[0], k1, 0x00);
        x[0] = _mm_clmulepi64_si128(x[0], k1, 0x11);
        x[0] = _mm_xor_si128(_mm_xor_si128(x[0], t),
                             _mm_loadu_si128((const __m128i *)p));
        p += 16;
        len -= 16;
    }
    /* 128 -> 64 bits (appending 32 zero bits), then 64 -> 32. */
    t = _mm_clmulepi64_si128(k1, x[0], 0x01);
    x[0] = _mm_xor_si128(_mm_srli_si128(x[0], 8), t);
    t = _mm_srli_si128(x[0], 4);
    k = _mm_set_epi64x(0, FOLD_64);
    x[0] = _mm_clmulepi64_si128(_mm_and_si128(x[0], mask32), k, 0x00);
    x[0] = _mm_xor_si128(x[0], t);
    /* Barrett: q = (low32 * mu) mod x^32, remainder = x ^ q * P. */
    k = _mm_set_epi64x(BARRETT_MU, BARRETT_P);
    t = x[0];
    x[0] = _mm_clmulepi64_si128(_mm_and_si128(x[0], mask32), k, 0x10);
    x[0] = _mm_clmulepi64_si128(_mm_and_si128(x[0], mask32), k, 0x00);
    x[0] = _mm_xor_si128(x[0], t);
    return (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(x[0], 4));
}

static int clmul_usable = -1;
#endif

/*
 * Running CRC: start from E1000E_PP_CRC_INIT, feed the bytes in order,
 * and the FCS is the complement of the result (sent LSB first).
 */
uint32_t e1000e_pp_crc32_update(uint32_t crc, const uint8_t *p, size_t len)
{
    if (!crc_table_ready) {
        crc_table_init();
    }
#ifdef HAVE_CLMUL_CRC
    if (clmul_usable < 0) {
        __builtin_cpu_init();
        clmul_usable = __builtin_cpu_supports("pclmul");
    }
    if (clmul_usable && len >= 64) {
        size_t bulk = len & ~(size_t)15;
        crc = crc32_clmul(crc, p, bulk);
        p += bulk;
        len -= bulk;
    }
#endif
    while (len >= 8) {
        uint32_t a = crc ^ get_le32(p), b = get_le32(p + 4);
        crc = crc_table[7][a & 0xff] ^ crc_table[6][(a >> 8) & 0xff] ^
              crc_table[5][(a >> 16) & 0xff] ^ crc_table[4][a >> 24] ^
              crc_table[3][b & 0xff] ^ crc_table[2][(b >> 8) & 0xff] ^
              crc_table[1][(b >> 16) & 0xff] ^ crc_table[0][b >> 24];
        p += 8;
        len -= 8;
    }
    while (len--) {
        crc = (crc >> 8) ^ crc_table[0][(crc ^ *p++) & 0xff];
    }
    return crc;
}

uint32_t e1000e_pp_crc32(const uint8_t *p, size_t len)
{
    return ~e1000e_pp_crc32_update(E1000E_PP_CRC_INIT, p, len);
}

/*
 * Ones'-complement sum of buf in network byte order, added to sum.
 * RFC 1071 §2(B): the sum is byte-order independent, so 32-bit words are
 * summed in host (little-endian) order and the folded result swapped.
 */
uint32_t e1000e_pp_csum_add(uint32_t sum, const uint8_t *p, size_t len)
{
    uint64_t s = 0, s2 = 0;
    uint32_t folded;
    size_t i = 0;

    /* Two independent 64-bit accumulators of 32-bit halves: no carries. */
    for (; i + 16 <= len; i += 16) {
        uint64_t a = get_le64(p + i), b = get_le64(p + i + 8);
        s += (a & 0xffffffffu) + (a >> 32);
        s2 += (b & 0xffffffffu) + (b >> 32);
    }
    s = (s & 0xffffffffu) + (s >> 32) + (s2 & 0xffffffffu) + (s2 >> 32);
    for (; i + 4 <= len; i += 4) {
        s += get_le32(p + i);
    }
    for (; i + 1 < len; i += 2) {
        s += get_le16(p + i);
    }
    if (i < len) {
        s += p[i];
    }
    while (s >> 16) {
        s = (s & 0xffff) + (s >> 16);
    }
    folded = (uint32_t)(((s & 0xff) << 8) | (s >> 8));
    return sum + folded < sum ? sum + folded + 1 : sum + folded;
}

uint16_t e1000e_pp_csum_fold(uint32_t sum)
{
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return (uint16_t)sum;
}
