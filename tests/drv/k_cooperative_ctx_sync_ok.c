/* SPDX-License-Identifier: Apache-2.0 */
/* k_cooperative_ctx_sync_ok: a cooperative launch writes pinned host
 * memory; cuCtxSynchronize observes every piece of the context's work, the
 * launch included: no report.  Twin of k_cooperative_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of k_cooperative_race: the same program, with the lines under #ifdef SG_TWIN
 * there. */
#define SG_TWIN 1
#include "k_cooperative_race.c"
