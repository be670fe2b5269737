/* SPDX-License-Identifier: Apache-2.0 */
/* Reporting a race between two device operations (devmem/race.c). */
#ifndef SG_DEVMEM_RACE_H
#define SG_DEVMEM_RACE_H

#include "devmem/devmem_int.h"

/* An earlier access a new operation met and does not follow. */
struct sg_dev_clash_seen {
    enum sg_dev_clash kind;
    uintptr_t at; /* the first byte both touch */
    struct sg_dev_stamp old;
    int have_op; /* op holds the earlier operation (not left the ring) */
    struct sg_dev_opinfo op;
};

/* Reports the race of op (on stream si) with what it met; fixed: syncguard
 * made op's stream wait for the earlier one. Normal context. Returns only
 * if the program goes on (mode=abort ends it). */
void sg_devmem_report(const struct sg_dev_op *op, const struct sg_stream_info *si,
                      const struct sg_dev_clash_seen *seen, int fixed);

#endif
