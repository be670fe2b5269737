/* SPDX-License-Identifier: Apache-2.0 */
/* m_sync_dtod_legacy_ok: synchronous work on the legacy default stream.  As
 * m_sync_memset_legacy_ok, the call being a synchronous device-to-device
 * copy (cuMemcpyDtoD: "no host-side synchronization is performed").
 * Synchronizing the blocking stream B afterwards observes the copy.  Twin:
 * m_sync_memset_nonblocking_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_sync_memset_nonblocking_race: the same program, with the
 * lines under #ifdef SG_TWIN there, this stream A and this call. */
#define SG_TWIN 1
#define SG_A_FLAGS CU_STREAM_DEFAULT
#define SG_LEGACY_OP cuMemcpyDtoD(scratch, scratch2, 64)
#include "m_sync_memset_nonblocking_race.c"
