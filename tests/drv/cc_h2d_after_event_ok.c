/* SPDX-License-Identifier: Apache-2.0 */
/* cc_h2d_after_event_ok: the two copies of cc_h2d_reads_d2h_race, with
 * stream b waiting (cuStreamWaitEvent) for an event recorded after the
 * device-to-host copy: the host-to-device copy is ordered after it and
 * reads what it wrote: no report.  Twin: cc_h2d_reads_d2h_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of cc_h2d_reads_d2h_race: the same program, with the lines
 * under #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "cc_h2d_reads_d2h_race.c"
