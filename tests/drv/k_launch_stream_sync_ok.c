/* SPDX-License-Identifier: Apache-2.0 */
/* k_launch_stream_sync_ok: a kernel launched with cuLaunchKernel writes
 * pinned host memory; the host reads it only after cuStreamSynchronize on
 * the launch's stream, which observes the launch complete: no report, and
 * the words are the kernel's.  Twin of k_launch_read_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of k_launch_read_race: the same program, with the lines under #ifdef SG_TWIN
 * there. */
#define SG_TWIN 1
#include "k_launch_read_race.c"
