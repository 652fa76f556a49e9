/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Frame arithmetic (net.c): the Ethernet CRC-32 and the Internet
 * checksum, used by the engines, the tests and the benchmarks; and the
 * host's fast paths behind them (crc32_clmul.c on x86-64, else
 * crc32_clmul_stub.c).
 */
#ifndef E1000E_PP_NET_H
#define E1000E_PP_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define E1000E_PP_CRC_INIT 0xffffffffu
uint32_t e1000e_pp_crc32_update(uint32_t crc, const uint8_t *buf, size_t len);
uint32_t e1000e_pp_crc32(const uint8_t *buf, size_t len);
uint32_t e1000e_pp_csum_add(uint32_t sum, const uint8_t *buf, size_t len);
uint16_t e1000e_pp_csum_fold(uint32_t sum);

/*
 * Carry-less CRC folding: the widest variant this host runs, 0 for none,
 * else 1 (SSE) up to 2 (AVX) or 3 (VPCLMULQDQ); every variant up to it
 * runs too (the tests check each). e1000e_pp_crc32_clmul uses the widest,
 * once e1000e_pp_crc32_clmul_variants has said it is not 0. len: at
 * least 64.
 */
unsigned e1000e_pp_crc32_clmul_variants(void);
uint32_t e1000e_pp_crc32_clmul(uint32_t crc, const uint8_t *p, size_t len);
uint32_t e1000e_pp_crc32_clmul_variant(unsigned v, uint32_t crc,
                                       const uint8_t *p, size_t len);
bool e1000e_pp_csum_simd_usable(void);
uint64_t e1000e_pp_csum_simd(const uint8_t *p, size_t len);

#endif
