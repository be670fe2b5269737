/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_conditional_ok: the conditional graph of m_graph_conditional_race, read after cuStreamSynchronize: no race.  Twin: m_graph_conditional_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_graph_conditional_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_graph_conditional_race.c"
