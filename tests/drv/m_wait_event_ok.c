/* SPDX-License-Identifier: Apache-2.0 */
/* m_wait_event_ok: cuStreamWaitEvent.  Copy on A, event e recorded on A, B
 * waits for e, event e2 recorded on B: e2 completes after the copy, so
 * synchronizing e2 observes it.  Twin: m_wait_event_before_copy_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_wait_event_chain_ok: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_wait_event_chain_ok.c"
