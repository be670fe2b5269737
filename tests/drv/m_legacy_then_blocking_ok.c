/* SPDX-License-Identifier: Apache-2.0 */
/* m_legacy_then_blocking_ok: legacy default stream.  The copy runs on the
 * legacy stream; then a memset is enqueued on a BLOCKING stream B, which
 * makes it wait for all earlier legacy-stream work.  Synchronizing B
 * observes the copy.  Twin: m_legacy_then_nonblocking_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_legacy_then_nonblocking_race: the same program, with the
 * lines under #ifdef SG_TWIN there and this operation on B. */
#define SG_TWIN 1
#define SG_OP_ON_B cuMemsetD8Async(scratch, 1, 64, b)
#include "m_legacy_then_nonblocking_race.c"
