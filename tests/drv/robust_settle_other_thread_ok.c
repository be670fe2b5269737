/* SPDX-License-Identifier: Apache-2.0 */
/* robust_settle_other_thread_ok: robust_settle_other_thread_race, but the
 * main thread synchronizes X's stream before it reads: X is observed while
 * thread A still settles the page (A waits for Y), so the main thread's
 * read, which still faults, is waited for and not reported.
 *
 * SG-EMU-ONLY
 * SG-OPTIONS: verbosity=1
 * SG-EXPECT: silent
 * SG-GREP: stats: .*faults_race=0, faults_waited=1,
 */
#define SG_TWIN 1
#include "robust_settle_other_thread_race.c"
