/* SPDX-License-Identifier: Apache-2.0 */
/* A bounded wait for a copy, from the fault handler (fault/wait.c). */
#ifndef SG_FAULT_WAIT_H
#define SG_FAULT_WAIT_H

#include <cuda.h>

/* Normal context: makes sure a waiter thread is idle, for the next bounded
 * wait (called where a gate is enqueued: a wait-value operation, a host
 * function). */
void sg_waiters_ensure(void);
/* Signal-safe: waits until ev completes or ms milliseconds passed; 1 when
 * it completed. */
int sg_wait_bounded(CUevent ev, long ms);

#endif
