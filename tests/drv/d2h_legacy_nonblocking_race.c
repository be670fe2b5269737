/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_legacy_nonblocking_race: as d2h_legacy_covers_blocking, but the copy
 * runs on a NON-BLOCKING stream, which the legacy default stream does not
 * wait for: the event recorded on stream NULL says nothing about the copy,
 * and reading the pinned destination after synchronizing it is a race.
 *
 * The stream's hold is set to go at the next host wait only after
 * cuEventSynchronize (which must not be what lets the copy run), so
 * without syncguard the read sees the old data.
 *
 * SG-EXPECT: early-host-read
 */
/* The twin of d2h_event_before_copy_race: the same program, with the lines
 * under #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "d2h_event_before_copy_race.c"
