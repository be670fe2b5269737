/* SPDX-License-Identifier: Apache-2.0 */
/* m_sync_peer_context_race: synchronous work on the legacy default stream.
 * A copy on the NON-BLOCKING stream A, then cuMemcpyPeer within the one
 * context. Its documentation says it is "serialized with respect [to] all
 * pending and future asynchronous work" of the context, but on the real
 * driver it is not (driver 580, H200, tests/gpu/RESULTS.md run 39: this
 * program, run natively, read the copy's old bytes): it is work on the
 * legacy stream, which does not wait for A, and a memset on the blocking
 * stream B waits for it; synchronizing B says nothing about the copy.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_sync_memset_nonblocking_race
 */
/* The same program as m_sync_memset_nonblocking_race, with this call in
 * place of its memset. */
#define SG_LEGACY_OP cuMemcpyPeer(scratch, ctx, scratch2, ctx, 64)
#include "m_sync_memset_nonblocking_race.c"
