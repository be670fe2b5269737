/* SPDX-License-Identifier: Apache-2.0 */
/* robust_neighbour_settle_stepped: robust_neighbour_settle with
 * emulate_neighbours=0: the 8 writes before the settle are single-stepped
 * (the page opened for one instruction each, SIGTRAP closes it), as they
 * are for instructions that are not emulated.  x86-64 only (the trap
 * flag); aarch64: robust_neighbour_settle_unstepped_a64.
 *
 * SG-OPTIONS: verbosity=1:emulate_neighbours=0
 * SG-EXPECT: silent
 * SG-GREP: stats: .*faults_race=0, faults_waited=0, faults_neighbour=8, faults_emulated=0, faults_settled=1,
 */
#if !defined(__x86_64__)
#include "sgt_x86_only.h"
SGT_X86_ONLY("the trap flag (aarch64 user space cannot single-step itself): "
             "robust_neighbour_settle_unstepped_a64")
#else
#include "robust_neighbour_settle.c"
#endif
