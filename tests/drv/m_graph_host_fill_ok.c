/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_host_fill_ok: a graph whose host node fills a pinned staging
 * buffer is launched on stream A, and an async host-to-device copy from the
 * buffer is enqueued after the launch on A.  Stream order places the
 * node's writes before the copy starts: they go through at once, with no
 * report and no wait (not after a bounded one: waits_abandoned stays 0).
 * Twin: m_graph_host_fill_race.
 *
 * SG-EXPECT: silent
 * SG-OPTIONS: verbosity=1
 * SG-GREP: faults_ordered_before=1, waits_abandoned=0
 */
/* The twin of m_graph_host_fill_race: the same program, with the lines
 * under #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_graph_host_fill_race.c"
