/* SPDX-License-Identifier: Apache-2.0 */
/* m_gate_fill_ok: the host fills a pinned buffer, then opens the
 * cuStreamWaitValue32 gate in front of the async host-to-device copy that
 * reads it (#11: this hung).  The writes come before the copy starts; the
 * gate cannot open while they wait.  syncguard bounds its wait, lets the
 * writes through without a report and counts it (waits_abandoned, at
 * verbosity=1).  Twin: m_gate_fill_race.
 *
 * SG-EXPECT: silent
 * SG-OPTIONS: verbosity=1:wait_bound_ms=1000
 * SG-GREP: waits_abandoned=1
 */
/* The twin of m_gate_fill_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_gate_fill_race.c"
