/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fuzz input as the targets read it (fuzz-input.c decodes its
 * operations): bytes taken from the front, little-endian, zeros once it
 * runs out.
 */
#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

#include "fuzz-shadow.h"

typedef struct Input {
    const uint8_t *p;
    size_t left;
} Input;

static inline uint8_t get8(Input *in)
{
    if (!in->left) {
        return 0;
    }
    in->left--;
    return *in->p++;
}

static inline uint32_t get16(Input *in)
{
    uint32_t lo = get8(in);

    return lo | (uint32_t)get8(in) << 8;
}

static inline uint32_t get32(Input *in)
{
    uint32_t lo = get16(in);

    return lo | get16(in) << 16;
}

/* One operation of the input, with the checks that follow it. */
void fuzz_step(Harness *h, Input *in);

#endif
