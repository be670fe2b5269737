/* SPDX-License-Identifier: Apache-2.0 */
/* robust_neighbour_settle_now: robust_neighbour_settle with page_steps=0:
 * the first write to the neighbour bytes settles the page (its copy has
 * finished on the device), nothing is emulated or single-stepped.
 *
 * SG-OPTIONS: verbosity=1:page_steps=0
 * SG-EXPECT: silent
 * SG-GREP: stats: .*faults_race=0, faults_waited=0, faults_neighbour=0, faults_emulated=0, faults_settled=1,
 */
#include "robust_neighbour_settle.c"
