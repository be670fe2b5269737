/* SPDX-License-Identifier: Apache-2.0 */
/* k_launch_ex_event_ok: a kernel launched with cuLaunchKernelEx on the
 * device alias of pinned host memory, then an event recorded after it and
 * cuEventSynchronize: the host has observed the launch, so writing the
 * memory afterwards is no race (and the host's word stays).  Twin of
 * k_launch_ex_alias_write_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of k_launch_ex_alias_write_race: the same program, with the lines under #ifdef SG_TWIN
 * there. */
#define SG_TWIN 1
#include "k_launch_ex_alias_write_race.c"
