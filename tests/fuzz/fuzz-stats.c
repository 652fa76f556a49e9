/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The accounting invariants of fuzz-shadow.h: each offered frame ends in
 * exactly one place, and the statistics the guest sees move with the
 * frames' fates and never backwards.
 */
#include <string.h>

#include "fuzz-shadow.h"

static uint64_t bucket_sum(const E1000EPPRxCounters *s, unsigned queued)
{
    return s->delivered + s->missed + s->filtered + s->oversize +
           s->undersize + s->not_ready + s->dma_error + s->flushed +
           s->errored + queued;
}

/* One frame offered; it must end in exactly one place. */
void shadow_offer(Harness *h, const uint8_t *f, size_t len)
{
    E1000EPPCore *c = h->core;
    E1000EPPRxCounters before = c->obs.rxstat;
    unsigned q = c->arch.pktbuf.count;
    bool took;

    if (h->frames++ >= MAX_FRAMES) {
        return;
    }
    took = e1000e_pp_receive(c, f, len);
    if (h->compare) {
        harness_out(h, 'f', took, NULL, 0);
    }
    if (h->twin) {
        return;             /* the original's shadow checks it */
    }
    uint64_t offered = c->obs.rxstat.offered - before.offered;

    /* More than one only when looped-back frames joined it. */
    if (took ? offered < 1 : offered != 0) {
        shadow_violation("a frame offered once was counted otherwise",
                         offered, took);
    }
    if (bucket_sum(&c->obs.rxstat, c->arch.pktbuf.count) -
        bucket_sum(&before, q) != offered) {
        shadow_violation("a frame did not end in exactly one place", len,
                         offered);
    }
}

/*
 * Frames GPRC does not count: refused before the MAC took them in, or
 * dropped for a frame error.
 */
static uint64_t refused(const E1000EPPRxCounters *s)
{
    return s->missed + s->filtered + s->oversize + s->undersize +
           s->not_ready + s->errored;
}

void shadow_snapshot(Harness *h)
{
    if (h->twin) {
        return;
    }
    memcpy(h->stats, &h->core->arch.regs[R_STATS / 4], sizeof(h->stats));
    h->rxstat = h->core->obs.rxstat;
    h->queued = h->core->arch.pktbuf.count;
}

static uint32_t stat_delta(Harness *h, uint32_t off)
{
    return h->core->arch.regs[off / 4] - h->stats[(off - R_STATS) / 4];
}

/*
 * Statistics only grow, unless the guest read them or a reset ran; and
 * the counters the guest sees move with the frames' fates: MPC with the
 * missed, ROC/RUC with the length drops, GPRC with every frame taken in.
 */
void shadow_check_stats(Harness *h)
{
    E1000EPPRxCounters *now = &h->core->obs.rxstat, *was = &h->rxstat;
    uint32_t queued = h->core->arch.pktbuf.count;
    bool saturated = false;
    unsigned i;

    if (h->twin) {
        return;
    }

    for (i = 0; i < sizeof(h->stats) / 4; i++) {
        if (h->core->arch.regs[R_STATS / 4 + i] < h->stats[i]) {
            shadow_violation("a statistics register moved backwards",
                             R_STATS + 4 * i, h->stats[i]);
        }
        saturated |= h->stats[i] == 0xffffffffu;
    }
    if (saturated) {
        return;             /* the deltas below mean nothing then */
    }
    if (bucket_sum(now, queued) - bucket_sum(was, h->queued) !=
        now->offered - was->offered) {
        shadow_violation("frames offered and their fates disagree",
                         now->offered, bucket_sum(now, queued));
    }
    if (stat_delta(h, R_MPC) != now->missed - was->missed) {
        shadow_violation("MPC and the missed frames disagree",
                         stat_delta(h, R_MPC), now->missed - was->missed);
    }
    /* ROC also counts the long frames RCTL.SBP stores. */
    if (stat_delta(h, R_ROC) != now->oversize - was->oversize +
        now->long_stored - was->long_stored ||
        stat_delta(h, R_RUC) != now->undersize - was->undersize) {
        shadow_violation("ROC/RUC and the length drops disagree",
                         stat_delta(h, R_ROC), stat_delta(h, R_RUC));
    }
    /*
     * GPRC counts the frames taken in, except the long ones RCTL.SBP let
     * in (those may still have been missed, so only a bound holds).
     */
    if (stat_delta(h, R_GPRC) > (now->offered - refused(now)) -
                                (was->offered - refused(was)) ||
        stat_delta(h, R_GPRC) + now->long_stored - was->long_stored <
        (now->offered - refused(now)) - (was->offered - refused(was))) {
        shadow_violation("GPRC and the frames taken in disagree",
                         stat_delta(h, R_GPRC), now->offered - was->offered);
    }
}
