/* SPDX-License-Identifier: Apache-2.0 */
/* k_launch_event_ok: what the launch completion event of
 * k_launch_event_race does show: the work before the kernel on its stream
 * (a copy into other pinned memory) is complete, so reading the copy after
 * synchronizing the event is no race; the kernel's own words are read
 * after cuStreamSynchronize.  Twin: k_launch_event_race.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#include "k_launch_event_race.c"
