/* SPDX-License-Identifier: Apache-2.0 */
/* m_sync_peer_legacy_ok: synchronous work on the legacy default stream.  As
 * m_sync_memset_legacy_ok, the call being a synchronous peer copy
 * (cuMemcpyPeer, both sides in the current context).
 * Synchronizing the blocking stream B afterwards observes the copy.  Twin:
 * m_sync_memset_nonblocking_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_sync_memset_nonblocking_race: the same program, with the
 * lines under #ifdef SG_TWIN there, this stream A and this call. */
#define SG_TWIN 1
#define SG_A_FLAGS CU_STREAM_DEFAULT
#define SG_LEGACY_OP cuMemcpyPeer(scratch, ctx, scratch2, ctx, 64)
#include "m_sync_memset_nonblocking_race.c"
