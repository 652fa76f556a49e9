/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The page-pool receive design's own interface (e1000e-pp-rxdrv-
 * pagepool.c): its chunk accounting, for the scenarios that look into
 * it, and the libeth-style sizes it computes.  Nothing here is part of
 * the ring or of the other designs.
 */

#ifndef E1000E_PP_RXDRV_PAGEPOOL_H
#define E1000E_PP_RXDRV_PAGEPOOL_H

#include "e1000e-pp-rxdrv.h"

/* The pool: every chunk free, posted or held by a frame */
typedef enum EppChunkState {
    EPP_CHUNK_FREE,
    EPP_CHUNK_POSTED,
    EPP_CHUNK_HELD,             /* part of a frame not yet released */
} EppChunkState;

typedef struct EppPagePool {
    unsigned npages;
    unsigned chunks_per_page;
    unsigned nchunks;
    uint64_t pool;              /* guest address of page 0 */
    EppChunkState *chunk_state;
    uint64_t *chunk_owner;      /* held chunks: the frame's seq */
    unsigned *free_stack;
    unsigned nfree;
    unsigned n_posted_chunks, n_held_chunks;
    size_t buf_len;             /* libeth buf_len */
    size_t chunk_truesize;      /* libeth truesize of one chunk */
    unsigned chain_last;        /* per_desc: last chunk of the frame */
} EppPagePool;

EppPagePool *epp_rx_pagepool(EppRx *rx);

/* libeth-style sizes (x86-64: NET_SKB_PAD 64, skb_shared_info 320) */
#define EPP_PP_HEADROOM         64
#define EPP_PP_SHINFO           320
#define EPP_PP_SKB              256
#define EPP_PP_PAGE             4096

size_t epp_pp_buf_len(unsigned mtu);
size_t epp_pp_chunk_truesize(unsigned mtu);
unsigned epp_pp_chunks_per_page(unsigned mtu);

#endif /* E1000E_PP_RXDRV_PAGEPOOL_H */
