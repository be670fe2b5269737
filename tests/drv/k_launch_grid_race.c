/* SPDX-License-Identifier: Apache-2.0 */
/* k_launch_grid_race: k_cooperative_race with the launch made by the API
 * before CUDA 4.0: the parameters left with the function by cuParamSetv
 * and cuParamSeti, then cuLaunchGridAsync.  syncguard follows the
 * parameter calls, so the launch's pointer into pinned memory is seen as
 * any launch's is.  Twin: k_launch_grid_ctx_sync_ok.
 *
 * SG-EXPECT: kernel-early-host-read
 * SG-GREP: Kernel sgt_fill launched on .* by cuLaunchGridAsync
 * SG-GREP: the launch was on stream .* and no event wait orders it before
 */
#define K_HOW K_LEGACY_GRID
#include "k_cooperative_race.c"
