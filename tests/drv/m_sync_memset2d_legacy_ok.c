/* SPDX-License-Identifier: Apache-2.0 */
/* m_sync_memset2d_legacy_ok: synchronous work on the legacy default stream.  As
 * m_sync_memset_legacy_ok, the call being a synchronous 2D memset of
 * device memory (cuMemsetD2D16).
 * Synchronizing the blocking stream B afterwards observes the copy.  Twin:
 * m_sync_memset_nonblocking_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_sync_memset_nonblocking_race: the same program, with the
 * lines under #ifdef SG_TWIN there, this stream A and this call. */
#define SG_TWIN 1
#define SG_A_FLAGS CU_STREAM_DEFAULT
#define SG_LEGACY_OP cuMemsetD2D16(scratch, 64, 1, 8, 2)
#include "m_sync_memset_nonblocking_race.c"
