/* SPDX-License-Identifier: Apache-2.0 */
/* k_programmatic_event_ok: k_launch_event_ok with the programmatic event of
 * k_programmatic_event_race: it shows the work before the kernel complete.
 * Twin: k_programmatic_event_race.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#define SG_PROGRAMMATIC 1
#include "k_launch_event_race.c"
