/* SPDX-License-Identifier: Apache-2.0 */
/* Events syncguard records after each guarded copy, kept per context and
 * reused. The put side runs in the fault handler: no allocation. */
#ifndef SG_DRIVER_EVENTPOOL_H
#define SG_DRIVER_EVENTPOOL_H

#include <cuda.h>

/* An event of ctx, reused or created; NULL if none could be made. */
CUevent sg_event_pool_get(CUcontext ctx);
/* Gives an event back (NULL: nothing); signal-safe. */
void sg_event_pool_put(CUcontext ctx, CUevent e);
/* A destroyed context takes its events with it. */
void sg_event_pool_forget_ctx(CUcontext ctx);
void sg_event_pool_after_fork_child(void);

#endif
