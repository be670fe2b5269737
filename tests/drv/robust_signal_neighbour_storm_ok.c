/* SPDX-License-Identifier: Apache-2.0 */
/* robust_signal_neighbour_storm_ok: under a SIGUSR1 every 50 us whose
 * handler counts in neighbour words of a copy in flight, the host
 * synchronizes with the copy's stream before reading its destination: no
 * report, every iteration completes, the copied data, each count equal to
 * the signals taken.
 *
 * SG-EXPECT: silent
 * SG-NO-QEMU: qemu-user 7.2 hangs it (every thread in a futex wait, the timer's signals no longer delivered: CI run of 2026-12-03); qemu delivers a timer's signals some 40 times a second, not every 50 us
 */
/* The twin of robust_signal_neighbour_storm_race: the same program, with
 * the lines under #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "robust_signal_neighbour_storm_race.c"
