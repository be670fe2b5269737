/* SPDX-License-Identifier: Apache-2.0 */
/* dw_peer_src_sync_ok: the peer copy of dw_peer_src_write_race, its
 * source overwritten only after cuStreamSynchronize: no race.  Twin:
 * dw_peer_src_write_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of dw_peer_src_write_race: the same program, with the lines
 * under #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "dw_peer_src_write_race.c"
