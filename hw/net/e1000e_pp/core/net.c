/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Frame arithmetic shared by the Rx and Tx engines: the Ethernet CRC-32
 * (IEEE 802.3 clause 3.2.9) and the ones'-complement Internet checksum
 * (RFC 1071).
 */
#include "net.h"
#include "bytes.h"

/* The host's fast paths, asked once (bit 0: CLMUL CRC, bit 1: AVX2 sum). */
#define FAST_CLMUL      1
#define FAST_SIMD       2
static int fast = -1;

static inline int fast_paths(void)
{
    if (fast < 0) {
        fast = (e1000e_pp_crc32_clmul_variants() ? FAST_CLMUL : 0) |
               (e1000e_pp_csum_simd_usable() ? FAST_SIMD : 0);
    }
    return fast;
}

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


/*
 * Running CRC: start from E1000E_PP_CRC_INIT, feed the bytes in order,
 * and the FCS is the complement of the result (sent LSB first).
 */
uint32_t e1000e_pp_crc32_update(uint32_t crc, const uint8_t *p, size_t len)
{
    if (!crc_table_ready) {
        crc_table_init();
    }
    if (len >= 64 && (fast_paths() & FAST_CLMUL)) {
        return e1000e_pp_crc32_clmul(crc, p, len);
    }
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

/* s += w, counting the carry out in c (compilers emit add and adc). */
static inline void add_carry(uint64_t *s, uint64_t *c, uint64_t w)
{
    *s += w;
    *c += *s < w;
}

/*
 * Ones'-complement sum of buf in network byte order, added to sum.
 * RFC 1071 §2(B): the sum is byte-order independent, so it is taken over
 * little-endian words and the folded result swapped; §2(C): it may be
 * taken over 64-bit words and folded, since 2^16 - 1 divides 2^64 - 1.
 * Each 8 bytes then cost an add and an add of the carry (the legacy
 * descriptor's packet checksum covers whole frames).
 */
uint32_t e1000e_pp_csum_add(uint32_t sum, const uint8_t *p, size_t len)
{
    uint64_t s = 0, c = 0;
    uint32_t folded;
    size_t i = 0;

    /* The bulk with AVX2 where there is: a sum of 16-bit words. */
    if (len >= 128 && (fast_paths() & FAST_SIMD)) {
        i = len & ~(size_t)31;
        s = e1000e_pp_csum_simd(p, i);
    }
    for (; i + 64 <= len; i += 64) {
        add_carry(&s, &c, get_le64(p + i));
        add_carry(&s, &c, get_le64(p + i + 8));
        add_carry(&s, &c, get_le64(p + i + 16));
        add_carry(&s, &c, get_le64(p + i + 24));
        add_carry(&s, &c, get_le64(p + i + 32));
        add_carry(&s, &c, get_le64(p + i + 40));
        add_carry(&s, &c, get_le64(p + i + 48));
        add_carry(&s, &c, get_le64(p + i + 56));
    }
    for (; i + 8 <= len; i += 8) {
        add_carry(&s, &c, get_le64(p + i));
    }
    /* Each carry out is worth 1 (2^64 = 1 mod 2^64 - 1), then to 33 bits. */
    s += c;
    s += s < c;
    s = (s & 0xffffffffu) + (s >> 32);
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
