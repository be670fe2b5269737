/* SPDX-License-Identifier: Apache-2.0 */
/* m_sync_memset_ptds_ok: the copy of m_sync_memset_ptds_race runs on the
 * legacy default stream; the per-thread stream "will synchronize with the
 * legacy default stream", so the synchronous memset on it (the _ptds ABI)
 * waits for the copy, and synchronizing the per-thread stream observes it.
 * Twin: m_sync_memset_ptds_race.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#include "m_sync_memset_ptds_race.c"
