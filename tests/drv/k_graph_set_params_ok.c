/* SPDX-License-Identifier: Apache-2.0 */
/* k_graph_set_params_ok: the twin of k_graph_set_params_race (its comment
 * says how they differ): the executable graph's kernel node no longer
 * points at pinned memory, so the host's accesses race with nothing.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#include "k_graph_set_params_race.c"
