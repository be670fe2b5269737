/* SPDX-License-Identifier: Apache-2.0 */
/* mg_kernel_ctx_sync_ok: the host synchronizes the context
 * before reading the managed words: no report.
 *
 * SG-OPTIONS: managed_races=1
 * SG-EXPECT: silent
 */
/* The program of mg_kernel_race.c with the macros below. */
#define MG_BEFORE_READ MG_CTX_SYNC
#include "mg_kernel_race.c"
