/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_sync_mode: with mode=sync, an early read of a cuMemcpyDtoHAsync
 * destination is not reported: syncguard silently waits for the copy and
 * lets the read go on with the copied data, and the exit status is the
 * program's own.
 *
 * SG-OPTIONS: mode=sync
 * SG-EXPECT: silent
 * SG-EXIT: 0
 */
/* The twin of d2h_async_read_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "d2h_async_read_race.c"
