/* SPDX-License-Identifier: Apache-2.0 */
/* mg_kernel_stream_sync_ok: the host synchronizes the
 * kernel's stream before reading the managed words: no report, the
 * kernel's words.
 *
 * SG-OPTIONS: managed_races=1
 * SG-EXPECT: silent
 */
/* The program of mg_kernel_race.c with the macros below. */
#define MG_BEFORE_READ MG_STREAM_SYNC
#include "mg_kernel_race.c"
