/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hosts other than x86-64: net.c's table-driven CRC-32 and its scalar
 * Internet checksum do all the work.
 */
#include "net.h"

uint32_t e1000e_pp_crc32_clmul(uint32_t crc, const uint8_t *p, size_t len)
{
    return crc;
}

unsigned e1000e_pp_crc32_clmul_variants(void)
{
    return 0;
}

uint32_t e1000e_pp_crc32_clmul_variant(unsigned v, uint32_t crc,
                                       const uint8_t *p, size_t len)
{
    return crc;
}

bool e1000e_pp_csum_simd_usable(void)
{
    return false;
}

uint64_t e1000e_pp_csum_simd(const uint8_t *p, size_t len)
{
    return 0;
}
