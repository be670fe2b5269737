/* SPDX-License-Identifier: Apache-2.0 */
/* dw_dtoh_mapped_counter_ok: XLA's redzone check as it runs: a memset
 * clears a counter in pinned mapped memory, a kernel counts into it, then
 * cuMemcpyDtoHAsync on the same stream copies it out by its device address.
 * The driver reads the counter on the CPU inside the call, after the
 * stream's earlier work: the call's access, in stream order, no race (issue
 * 27: reported as kernel-early-host-read and early-host-read of a memset).
 * Twin: dw_dtoh_mapped_counter_race.
 *
 * SG-EXPECT: silent
 * SG-OPTIONS: verbosity=1
 * SG-GREP: faults_in_call=[1-9]
 */
#define SG_TWIN 1
#include "dw_dtoh_mapped_counter_race.c"
