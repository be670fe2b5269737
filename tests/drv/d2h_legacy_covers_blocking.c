/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_legacy_covers_blocking: the copy runs on a BLOCKING created stream
 * (flags 0).  An operation on the legacy default stream waits for all
 * earlier work of the context's blocking streams, so an event recorded on
 * stream NULL after the copy and synchronized observes the copy's
 * completion: the read afterwards is no race.
 * Twin of d2h_legacy_nonblocking_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of d2h_event_sync: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "d2h_event_sync.c"
