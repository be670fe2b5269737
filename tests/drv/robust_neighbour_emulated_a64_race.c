/* SPDX-License-Identifier: Apache-2.0 */
/* robust_neighbour_emulated_a64_race: robust_neighbour_emulated_a64, then
 * one more plain load (LDR W), of bytes of the copy in flight, in place of
 * the settled LDAR: a race, reported (the emulation never handles a
 * copy's bytes), and after syncguard waited for the copy the load sees
 * the copied bytes.
 *
 * SG-OPTIONS: verbosity=1
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*robust_neighbour_emulated_a64
 * SG-GREP: stats: .*faults_race=1, faults_waited=0, faults_neighbour=0, faults_emulated=34,
 */
#define SG_TWIN 1
#include "robust_neighbour_emulated_a64.c"
