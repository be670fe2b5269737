/* SPDX-License-Identifier: Apache-2.0 */
/* dw_graph_dtod_alias_event_ok: the graph launch of
 * dw_graph_dtod_alias_race, read after cuEventSynchronize of an event
 * recorded after it: no race.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#include "dw_graph_dtod_alias_race.c"
