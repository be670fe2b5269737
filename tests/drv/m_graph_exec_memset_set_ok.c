/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_exec_memset_set_ok: the twin of m_graph_exec_memset_set_race (its
 * comment says how they differ): the executable graph's memset node no
 * longer writes the pinned words it was made on, so the host's accesses
 * race with nothing.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#include "m_graph_exec_memset_set_race.c"
