/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_exec_child_set_ok: the twin of m_graph_exec_child_set_race: the
 * child graph made on the pinned words is set to one on device memory, so
 * the executable graph's child no longer writes host memory and the
 * host's accesses race with nothing.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#define SG_CHILD 1
#include "m_graph_exec_memset_set_race.c"
