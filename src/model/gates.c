/* SPDX-License-Identifier: Apache-2.0 */
/* Gates: stream work that may not pass until the host acts. A wait-value
 * operation (cuStreamWaitValue32/64, a batch's wait) passes when some agent
 * writes its word, perhaps the very host thread that now touches a copy
 * behind it; a host function or stream callback passes when it returns. A
 * copy behind a live gate may never complete while the thread that touches
 * its bytes is stopped, so the fault handler must not wait for it without
 * a bound (fault/resolve.c). A wait-value gate is live until an
 * observation covers it; a host function's until it returns. */
#include "config.h"

#include "model/model.h"
#include "model/sync.h"

#define GATES_MAX 256

struct gate {
    uint32_t stream;
    uint64_t seq;
    uint64_t token; /* 0: a free slot */
};

static struct gate gates[GATES_MAX];
static uint64_t next_token = 1;
static int lost; /* a gate the table had no room for: every copy counts as behind one */

uint64_t sg_gate_add(uint32_t stream, uint64_t seq)
{
    for (int i = 0; i < GATES_MAX; i++)
        if (!gates[i].token) {
            gates[i] = (struct gate){ stream, seq, next_token++ };
            return gates[i].token;
        }
    lost = 1;
    return 0;
}

/* While a host function is pending, the streams' order matters with no
 * copy guarded: a copy enqueued later behind it (on its stream, or on one
 * that waits for it through an event) is one its accesses come before,
 * and only the modelled waits and records say so (sg_observe_needed). */
static int host_fns_pending;

void sg_host_fns_pending_add(int delta)
{
    __atomic_add_fetch(&host_fns_pending, delta, __ATOMIC_RELAXED);
}

int sg_gates_live(void)
{
    int n = 0;
    for (int i = 0; i < GATES_MAX; i++)
        n += __atomic_load_n(&gates[i].token, __ATOMIC_RELAXED) != 0;
    return n;
}

int sg_host_fns_pending(void)
{
    return __atomic_load_n(&host_fns_pending, __ATOMIC_RELAXED) > 0;
}

void sg_gate_passed(uint64_t token)
{
    for (int i = 0; token && i < GATES_MAX; i++)
        if (gates[i].token == token)
            gates[i].token = 0;
}

void sg_gates_passed_covered(const struct sg_vc *vc)
{
    for (int i = 0; i < GATES_MAX; i++)
        if (gates[i].token && sg_vc_get(vc, gates[i].stream) >= gates[i].seq)
            gates[i].token = 0;
}

int sg_clock_covers(const struct sg_clock *after, uint32_t stream, uint64_t seq)
{
    for (int i = 0; i < after->n; i++)
        if (after->e[i].stream == stream)
            return after->e[i].seq >= seq;
    return 0;
}

void sg_clock_raise(struct sg_clock *c, uint32_t stream, uint64_t seq)
{
    for (int i = 0; i < c->n; i++)
        if (c->e[i].stream == stream) {
            if (c->e[i].seq < seq)
                c->e[i].seq = seq;
            return;
        }
    if (c->n < SG_CLOCK_MAX)
        c->e[c->n++] = (struct sg_vc_entry){ .stream = stream, .seq = seq };
    else
        c->partial = 1;
}

int sg_gate_before(const struct sg_clock *after)
{
    if (lost)
        return 1;
    for (int i = 0; i < GATES_MAX; i++)
        if (gates[i].token && (after->partial || sg_clock_covers(after, gates[i].stream, gates[i].seq)))
            return 1;
    return 0;
}

void sg_clock_set(struct sg_clock *out, const struct sg_vc *vc)
{
    out->n = 0;
    out->partial = vc->n > SG_CLOCK_MAX;
    for (uint32_t i = 0; i < vc->n && i < SG_CLOCK_MAX; i++)
        out->e[out->n++] = vc->e[i];
}

void sg_gates_after_fork_child(void)
{
    for (int i = 0; i < GATES_MAX; i++)
        gates[i].token = 0;
    lost = 0;
    host_fns_pending = 0; /* the child runs none of the parent's */
}
