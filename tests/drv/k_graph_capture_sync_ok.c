/* SPDX-License-Identifier: Apache-2.0 */
/* k_graph_capture_sync_ok: k_graph_capture_race, but the host synchronizes
 * with the launch stream before it reads: silent, and the read sees the
 * kernel node's words.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#include "k_graph_capture_race.c"
