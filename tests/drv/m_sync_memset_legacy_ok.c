/* SPDX-License-Identifier: Apache-2.0 */
/* m_sync_memset_legacy_ok: synchronous work on the legacy default stream.  A copy on
 * the blocking stream A, then a synchronous cuMemsetD32 of device memory:
 * it returns at once, but on the legacy stream it waits for A's copy, and
 * a memset on B waits for it.
 * Synchronizing the blocking stream B afterwards observes the copy.  Twin:
 * m_sync_memset_nonblocking_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_sync_memset_nonblocking_race: the same program, with the
 * lines under #ifdef SG_TWIN there, this stream A and this call. */
#define SG_TWIN 1
#define SG_A_FLAGS CU_STREAM_DEFAULT
#define SG_LEGACY_OP cuMemsetD32(scratch, 1, 16)
#include "m_sync_memset_nonblocking_race.c"
