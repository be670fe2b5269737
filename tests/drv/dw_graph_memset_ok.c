/* SPDX-License-Identifier: Apache-2.0 */
/* dw_graph_memset_ok: the memset-node graph of dw_graph_memset_race, read
 * after cuStreamSynchronize: no race.  Twin: dw_graph_memset_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of dw_graph_memset_race: the same program, with the lines
 * under #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "dw_graph_memset_race.c"
