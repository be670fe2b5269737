/* SPDX-License-Identifier: Apache-2.0 */
/* robust_map_count_reopen_race: see robust_map_count_reopen.h.  At the
 * limit on mappings, an early read of a copy in flight: reported, then
 * the copied data.
 *
 * SG-OPTIONS: verbosity=1
 * SG-EXPECT: early-host-read
 * SG-GREP: guards_dropped_maps=[1-9]
 */
#include "robust_map_count_reopen.h"

int main(void)
{
    return reopen_main(1);
}
