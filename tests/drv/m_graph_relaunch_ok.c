/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_relaunch_ok: graphs.  "Each launch is ordered behind both any
 * previous work in hStream and any previous launches of hGraphExec"
 * (cuGraphLaunch):  the graph is launched on stream A (held), then launched
 * again on stream B; synchronizing B therefore observes the first launch's
 * copy as well.  Twin: m_graph_memcpy_node_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_graph_child_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_graph_child_race.c"
