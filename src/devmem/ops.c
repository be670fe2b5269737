/* SPDX-License-Identifier: Apache-2.0 */
/* The device operations the shadow names, with their enqueue stacks for
 * reports: a ring of the latest ones. An access whose operation has left
 * the ring still orders and conflicts; its report says the stack is gone. */
#include "config.h"

#include <stdlib.h>

#include "devmem/devmem_int.h"

#define RING 4096

static struct sg_dev_opinfo *ring SG_GUARDED_BY(sg_model_lock);
static uint64_t next_id SG_GUARDED_BY(sg_model_lock) = 1;
static struct sg_dev_opinfo spare; /* when the ring cannot be allocated */

struct sg_dev_opinfo *sg_dev_op_new(void)
{
    if (!ring)
        ring = calloc(RING, sizeof *ring);
    uint64_t id = next_id++;
    struct sg_dev_opinfo *o = ring ? &ring[id % RING] : &spare;
    o->id = id;
    return o;
}

const struct sg_dev_opinfo *sg_dev_op_find(uint64_t id)
{
    if (!ring || !id)
        return NULL;
    const struct sg_dev_opinfo *o = &ring[id % RING];
    return o->id == id ? o : NULL;
}
