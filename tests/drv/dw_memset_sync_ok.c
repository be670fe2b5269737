/* SPDX-License-Identifier: Apache-2.0 */
/* dw_memset_sync_ok: the memset of dw_memset_race, read after
 * cuStreamSynchronize: no race.  Twin: dw_memset_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of dw_memset_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "dw_memset_race.c"
