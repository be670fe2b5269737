/* SPDX-License-Identifier: Apache-2.0 */
/* robust_pinned_packed: robust_pinned_isolated with isolate_pinned=0: the
 * driver's layout, in which two of four 1 KiB pinned buffers share a page
 * (the emulator packs them as the real driver does). The host's writes to
 * the buffer next to the one being copied are neighbour faults, each
 * emulated (plain stores; stepped where /proc/self/mem cannot reach the
 * driver's pinned memory): still no report, both buffers right.
 *
 * SG-OPTIONS: verbosity=1:isolate_pinned=0
 * SG-EXPECT: silent
 * SG-GREP: stats: .* faults_neighbour=\(0, faults_emulated=[1-9][0-9]*\|[1-9][0-9]*, faults_emulated=[0-9]*\),
 */
/* The twin of robust_pinned_isolated: the same program, with the lines
 * under #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "robust_pinned_isolated.c"
