/* SPDX-License-Identifier: Apache-2.0 */
/* k_launch_grid_ctx_sync_ok: the cuLaunchGridAsync launch of
 * k_launch_grid_race, then cuCtxSynchronize, which observes it: no report.
 * Twin of k_launch_grid_race.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#define K_HOW K_LEGACY_GRID
#include "k_cooperative_race.c"
