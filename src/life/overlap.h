/* SPDX-License-Identifier: Apache-2.0 */
/* Copy against copy in one pinned buffer: a host-to-device copy reading
 * bytes that a device-to-host copy not ordered before it still writes, or
 * the reverse, is a race between the two copies themselves, found when the
 * second is enqueued (no host access is involved). */
#ifndef SG_LIFE_OVERLAP_H
#define SG_LIFE_OVERLAP_H

#include <stdint.h>

#include "life/life.h"

/* Before a copy's range is tracked (normal context): reports each active
 * copy that overlaps it in the other direction and that its stream does
 * not follow. pcs: the new copy's enqueue stack. */
void sg_copy_overlap_check(const struct sg_copy_request *rq, const uintptr_t *pcs, int npcs);

#endif
