/* SPDX-License-Identifier: Apache-2.0 */
/* robust_neighbour_settle_unstepped_a64: the aarch64 counterpart of
 * robust_neighbour_settle_stepped. robust_neighbour_settle with
 * emulate_neighbours=0, where no thread can single-step itself: the
 * first write of a neighbour byte settles the page (the copy is done on
 * the device: the page is opened for good), so no write faults after it,
 * none is stepped or emulated, and both halves are right.
 *
 * SG-OPTIONS: verbosity=1:emulate_neighbours=0
 * SG-EXPECT: silent
 * SG-GREP: stats: .*faults_race=0, faults_waited=0, faults_neighbour=0, faults_emulated=0, faults_settled=1,
 */
#if !defined(__aarch64__)
#include <stdio.h>

int main(void)
{
    printf("SKIP: aarch64 only: no single-stepping there; x86-64: "
           "robust_neighbour_settle_stepped\n");
    return 77;
}
#else
#include "robust_neighbour_settle.c"
#endif
