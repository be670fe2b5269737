/* SPDX-License-Identifier: Apache-2.0 */
/* m_sync_memset_pinned_ok: the copy of m_sync_memset_pinned_race runs on a
 * BLOCKING stream: the synchronous cuMemsetD32 of pinned memory on the
 * legacy stream waits for it, and returns once done, so the host has
 * observed the copy.  Twin: m_sync_memset_pinned_race.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#define SG_PINNED_OP cuMemsetD32((CUdeviceptr)(uintptr_t)mark, MARK, 64)
#include "m_sync_memset_pinned_race.c"
