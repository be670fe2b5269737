/* SPDX-License-Identifier: Apache-2.0 */
/* Where libsyncguard.so itself lies in memory: its frames are never shown,
 * and a "real" function that points into it would make a wrapper call
 * itself. */
#ifndef SG_BASE_SELF_H
#define SG_BASE_SELF_H

#include <stdint.h>

/* Finds the library's own mapping (once, at start-up). */
void sg_self_init(void);
/* Whether an address lies in libsyncguard.so. */
int sg_self_contains(uintptr_t addr);

#endif
