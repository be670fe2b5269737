/* SPDX-License-Identifier: Apache-2.0 */
/* m_legacy_then_blocking_writevalue_ok: legacy default stream.  As
 * m_legacy_then_blocking_ok, with the operation on the blocking stream B
 * being a stream memory operation (cuStreamWriteValue32).  Synchronizing B
 * observes the copy.  Twin: m_legacy_then_nonblocking_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_legacy_then_nonblocking_race: the same program, with the
 * lines under #ifdef SG_TWIN there and this operation on B. */
#define SG_TWIN 1
#define SG_OP_ON_B cuStreamWriteValue32(b, scratch, 1, 0)
#include "m_legacy_then_nonblocking_race.c"
