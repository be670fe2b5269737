/* SPDX-License-Identifier: Apache-2.0 */
/* robust_signal_storm_ok: under a SIGPROF every 50 us, the host
 * synchronizes with the copy's stream before reading its destination: no
 * report, the copied data, the signals' handler called.
 *
 * SG-EXPECT: silent
 */
/* The twin of robust_signal_storm_race: the same program, with the lines
 * under #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "robust_signal_storm_race.c"
