/* SPDX-License-Identifier: Apache-2.0 */
/* m_hostfn_fill_h2d_wait_ok: a host function on stream A fills a pinned
 * staging buffer; an event recorded after it on A is waited for by stream
 * C (cuStreamWaitEvent), where an async host-to-device copy reads the
 * buffer.  The copy's stream waits for the host function: its writes come
 * before the copy starts (no race), and the copy cannot start until it
 * returns (no wait, not even a bounded one: the event and the wait are
 * modelled although no copy is guarded yet when they are made).  Twin:
 * m_hostfn_fill_h2d_race.
 *
 * SG-EXPECT: silent
 * SG-OPTIONS: verbosity=1
 * SG-GREP: faults_ordered_before=1, waits_abandoned=0
 */
/* A twin of m_hostfn_fill_h2d_race: the same program, with the lines
 * under #if SG_TWIN == 2 there. */
#define SG_TWIN 2
#include "m_hostfn_fill_h2d_race.c"
