/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_exec_wait_set_ok: the executable graph of
 * m_graph_exec_wait_set_race has its wait node set to the event recorded
 * after the held copy: its launch on B waits for the copy, and
 * synchronizing B observes it.  Twin: m_graph_exec_wait_set_race.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#include "m_graph_exec_wait_set_race.c"
