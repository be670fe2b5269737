/* SPDX-License-Identifier: Apache-2.0 */
/* k_multi_device_presync_ok: the two-device launch of
 * k_multi_device_nosync_race with the default flags: the kernel on A does
 * not begin before all prior work of both streams is complete, B's copy
 * included, so synchronizing A observes the copy.  Twin:
 * k_multi_device_nosync_race.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#include "k_multi_device_nosync_race.c"
