/* SPDX-License-Identifier: Apache-2.0 */
/* k_multi_device_ctx_sync_ok: the launch of k_multi_device_race, then
 * cuCtxSynchronize, which observes the context's work, the launch's too:
 * no report.  Twin of k_multi_device_race.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#define K_HOW K_MULTI_DEVICE
#include "k_cooperative_race.c"
