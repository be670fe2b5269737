/* SPDX-License-Identifier: Apache-2.0 */
/* m_legacy_then_blocking_memset16_ok: legacy default stream.  As
 * m_legacy_then_blocking_ok, with the operation on the blocking stream B
 * being a cuMemsetD16Async: any work on a blocking stream waits for earlier
 * legacy-stream work, whatever call enqueued it.  Synchronizing B observes
 * the copy.  Twin: m_legacy_then_nonblocking_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_legacy_then_nonblocking_race: the same program, with the
 * lines under #ifdef SG_TWIN there and this operation on B. */
#define SG_TWIN 1
#define SG_OP_ON_B cuMemsetD16Async(scratch, 1, 32, b)
#include "m_legacy_then_nonblocking_race.c"
