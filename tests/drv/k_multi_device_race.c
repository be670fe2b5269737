/* SPDX-License-Identifier: Apache-2.0 */
/* k_multi_device_race: k_cooperative_race with the launch made by
 * cuLaunchCooperativeKernelMultiDevice (one device, one entry): each entry
 * is a kernel launch on its stream, which may write the pinned memory it
 * is given; the host reads it having synchronized only with another
 * stream.  Skipped where the driver no longer supports the call.  Twin:
 * k_multi_device_ctx_sync_ok.
 *
 * SG-EXPECT: kernel-early-host-read
 * SG-GREP: Kernel sgt_fill launched on .* by cuLaunchCooperativeKernelMultiDevice
 * SG-GREP: the launch was on stream .* and no event wait orders it before
 */
#define K_HOW K_MULTI_DEVICE
#include "k_cooperative_race.c"
