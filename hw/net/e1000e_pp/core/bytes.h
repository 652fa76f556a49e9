/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Byte order of what the device reads and writes in guest memory:
 * descriptors are little-endian (82574L §7.1, §7.2), frame headers
 * big-endian (network order).
 *
 * The peer and the agent (tools/wire/proto.h) have big-endian helpers of
 * their own on purpose: they check the bytes this code writes, so they
 * share no code with it.
 */
#ifndef E1000E_PP_BYTES_H
#define E1000E_PP_BYTES_H

#include <stdint.h>

static inline uint16_t get_be16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}
static inline uint32_t get_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
           (uint32_t)p[2] << 8 | p[3];
}
static inline void put_be16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = v;
}
static inline void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = v >> 24;
    p[1] = v >> 16;
    p[2] = v >> 8;
    p[3] = v;
}
static inline uint16_t get_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}
static inline uint32_t get_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 |
           (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t get_le64(const uint8_t *p)
{
    return get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}
static inline void put_le16(uint8_t *p, uint16_t v)
{
    p[0] = v;
    p[1] = v >> 8;
}
static inline void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = v;
    p[1] = v >> 8;
    p[2] = v >> 16;
    p[3] = v >> 24;
}

#endif
