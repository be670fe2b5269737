/* SPDX-License-Identifier: Apache-2.0 */
/* Raw stacks: program counters only, symbolized when a report is written. */
#ifndef SG_CAPTURE_STACK_H
#define SG_CAPTURE_STACK_H

#include <stdint.h>
#include <ucontext.h>

/* Once, at start-up. */
void sg_stack_init(void);
/* The caller's stack (normal context). */
int sg_stack_capture(uintptr_t *pcs, int max);
/* The stack of the code interrupted by a signal (signal context). */
int sg_stack_capture_signal(ucontext_t *uc, uintptr_t *pcs, int max);

#endif
