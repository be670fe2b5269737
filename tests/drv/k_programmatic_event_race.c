/* SPDX-License-Identifier: Apache-2.0 */
/* k_programmatic_event_race: k_launch_event_race with the event recorded
 * through CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT, each block triggering it
 * as it starts (triggerAtBlockStart): the event fires once every block has
 * triggered, and the kernel goes on writing.  syncguard never takes a
 * programmatic event for the kernel's completion (a block may trigger
 * before its writes, with or without triggerAtBlockStart).  Twin:
 * k_programmatic_event_ok.
 *
 * SG-EXPECT: kernel-early-host-read
 * SG-GREP: Kernel sgt_gated_fill launched on .* by cuLaunchKernelEx
 */
#define SG_PROGRAMMATIC 1
#include "k_launch_event_race.c"
