/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_memcpy_node_ok: graphs.  The memcpy-node graph of
 * m_graph_memcpy_node_race, with an event recorded after the launch and
 * synchronized: no race.  Twin: m_graph_memcpy_node_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_graph_memcpy_node_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_graph_memcpy_node_race.c"
