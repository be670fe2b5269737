/* SPDX-License-Identifier: Apache-2.0 */
/* Completion learnt from a flag. A program that spins on a word of pinned
 * memory until cuStreamWriteValue32/64 stores a value there has, once it
 * sees the value, observed everything its stream did before the store.
 * The word is guarded (SG_GUARD_FLAG): each read faults, is let through as
 * a neighbour's (emulated or stepped, no report), and the first read after
 * the store landed (the word holds the stored value, or the event recorded
 * after the store is complete) releases the copies on the store's stream
 * up to it, the flag's own guard included.
 * Only that stream: work on other streams ordered before the store through
 * event waits is not released by it (syncguard(7), LIMITATIONS). Runs in
 * the fault handler: the driver is asked without the model lock, nothing
 * is allocated. */
#include "config.h"

#include "base/lock.h"
#include "driver/driver.h"
#include "fault/emulate.h"
#include "fault/flag.h"
#include "life/life.h"
#include "model/copies.h"
#include "model/model.h"

#define MAX_FLAGS 8

struct flags {
    uintptr_t addr;
    int n;
    CUevent event[MAX_FLAGS];
    struct sg_vc_entry upto[MAX_FLAGS];
    int stored[MAX_FLAGS]; /* the word already holds the value */
};

/* Whether the flag's word holds what the device stores: the store is
 * visible to the host (the event after it may complete a moment later). */
static int holds_value(const struct sg_copy *c)
{
    uint64_t now = 0;
    if (!sg_emulate_peek(c->base, &now, c->size))
        return 0;
    uint64_t mask = c->size >= 8 ? ~0ull : (1ull << (8 * c->size)) - 1;
    return (now & mask) == (c->value & mask);
}

SG_REQUIRES(sg_model_lock) static void collect(struct sg_copy *c, void *arg)
{
    struct flags *f = arg;
    if (c->guard == SG_GUARD_FLAG && c->state == SG_COPY_ACTIVE && c->event && f->n < MAX_FLAGS &&
        sg_copy_touches(c, f->addr, f->addr + 1)) {
        f->event[f->n] = c->event;
        f->stored[f->n] = holds_value(c);
        f->upto[f->n++] = (struct sg_vc_entry){ c->stream.idx, c->seq };
    }
}

static void find_flag(struct sg_copy *c, void *arg)
{
    struct flags *f = arg;
    if (c->guard == SG_GUARD_FLAG && sg_copy_touches(c, f->addr, f->addr + 1))
        f->n = 1;
}

int sg_flag_at(uintptr_t addr)
{
    struct flags f = { .addr = addr };
    sg_copies_overlapping(addr, addr + 1, find_flag, &f);
    return f.n;
}

int sg_flag_poll_observes(uintptr_t addr)
{
    struct flags f = { .addr = addr };
    sg_copies_overlapping(addr, addr + 1, collect, &f);
    if (f.n == 0)
        return 0;
    /* A flag slot may be released and its event reused meanwhile: then
     * the query answers for a later record, which is complete no sooner. */
    sg_unlock(&sg_model_lock);
    int landed[MAX_FLAGS], any = 0;
    for (int i = 0; i < f.n; i++)
        any |= landed[i] = f.stored[i] || sg_driver()->cuEventQuery(f.event[i]) == CUDA_SUCCESS;
    sg_lock(&sg_model_lock);
    for (int i = 0; i < f.n; i++)
        if (landed[i])
            sg_copies_release_covered(&(struct sg_vc){ 1, 1, &f.upto[i] });
    return any;
}
