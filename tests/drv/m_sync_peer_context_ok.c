/* SPDX-License-Identifier: Apache-2.0 */
/* m_sync_peer_context_ok: synchronous work on the legacy default stream.  A copy on
 * the NON-BLOCKING stream A, then cuMemcpyPeer, which is "serialized with
 * respect [to] all pending and future asynchronous work in [...] the current
 * context, srcContext, and dstContext": it waits for A's copy although A
 * is non-blocking, and a memset on B waits for it.
 * Synchronizing the blocking stream B afterwards observes the copy.  Twin:
 * m_sync_memset_nonblocking_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_sync_memset_nonblocking_race: the same program, with the
 * lines under #ifdef SG_TWIN there, this stream A and this call. */
#define SG_TWIN 1
#define SG_A_FLAGS CU_STREAM_NON_BLOCKING
#define SG_LEGACY_OP cuMemcpyPeer(scratch, ctx, scratch2, ctx, 64)
#include "m_sync_memset_nonblocking_race.c"
