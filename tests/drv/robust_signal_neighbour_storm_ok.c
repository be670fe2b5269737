/* SPDX-License-Identifier: Apache-2.0 */
/* robust_signal_neighbour_storm_ok: under a SIGUSR1 every 50 us whose
 * handler counts in neighbour words of a copy in flight, the host
 * synchronizes with the copy's stream before reading its destination: no
 * report, every iteration completes, the copied data, each count equal to
 * the signals taken.
 *
 * SG-EXPECT: silent
 */
/* The twin of robust_signal_neighbour_storm_race: the same program, with
 * the lines under #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "robust_signal_neighbour_storm_race.c"
