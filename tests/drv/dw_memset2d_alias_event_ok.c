/* SPDX-License-Identifier: Apache-2.0 */
/* dw_memset2d_alias_event_ok: the 2D memset of
 * dw_memset2d_alias_write_race, with an event recorded after it and
 * synchronized before the host writes: no race.  Twin:
 * dw_memset2d_alias_write_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of dw_memset2d_alias_write_race: the same program, with the
 * lines under #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "dw_memset2d_alias_write_race.c"
