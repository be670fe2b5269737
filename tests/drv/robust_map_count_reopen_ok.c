/* SPDX-License-Identifier: Apache-2.0 */
/* robust_map_count_reopen_ok: see robust_map_count_reopen.h.  At the
 * limit on mappings, a read of a copy the program has synchronized with:
 * no report, the copied data.  Twin: robust_map_count_reopen_race.
 *
 * SG-OPTIONS: verbosity=1
 * SG-EXPECT: silent
 * SG-GREP: guards_dropped_maps=[1-9]
 */
#include "robust_map_count_reopen.h"

int main(void)
{
    return reopen_main(0);
}
