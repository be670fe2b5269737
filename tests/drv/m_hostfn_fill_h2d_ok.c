/* SPDX-License-Identifier: Apache-2.0 */
/* m_hostfn_fill_h2d_ok: a host function enqueued on a stream fills a pinned
 * staging buffer, and an async host-to-device copy from it is enqueued
 * after it on the same stream (#11: this hung).  Stream order places the
 * writes before the copy starts: no race, and no wait (the copy cannot
 * start before the function returns).  The device receives FILL.  Twin:
 * m_hostfn_fill_h2d_race.
 *
 * SG-EXPECT: silent
 * SG-OPTIONS: verbosity=1
 * SG-GREP: faults_ordered_before=1, waits_abandoned=0
 */
/* The twin of m_hostfn_fill_h2d_race: the same program, with the lines
 * under #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_hostfn_fill_h2d_race.c"
