/* SPDX-License-Identifier: Apache-2.0 */
/* What the program said it is doing (syncguard_set_context): written in
 * normal context by the program, read by the fault handler into the race
 * record. */
#ifndef SG_BASE_CONTEXT_H
#define SG_BASE_CONTEXT_H

#include <stddef.h>

#define SG_CONTEXT_MAX 256

/* Copies label (NULL: none), cut to SG_CONTEXT_MAX - 1 bytes. */
void sg_context_set(const char *label);
/* The label now into out (SG_CONTEXT_MAX bytes; "" when none).
 * Async-signal-safe: no lock, a torn label is retried. */
void sg_context_get(char *out);

#endif
