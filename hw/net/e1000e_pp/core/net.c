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

/*
 * Running CRC: start from E1000E_PP_CRC_INIT, feed the bytes in order,
 * and the FCS is the complement of the result (sent LSB first).
 */
uint32_t e1000e_pp_crc32_update(uint32_t crc, const uint8_t *p, size_t len)
{
    if (!crc_table_ready) {
        crc_table_init();
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

uint32_t e1000e_pp_csum_add(uint32_t sum, const uint8_t *p, size_t len)
{
    uint64_t s = sum;
    size_t i;

    for (i = 0; i + 1 < len; i += 2) {
        s += (uint32_t)(p[i] << 8 | p[i + 1]);
    }
    if (len & 1) {
        s += (uint32_t)p[len - 1] << 8;
    }
    while (s >> 32) {
        s = (s & 0xffffffffu) + (s >> 32);
    }
    return (uint32_t)s;
}

uint16_t e1000e_pp_csum_fold(uint32_t sum)
{
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return (uint16_t)sum;
}
