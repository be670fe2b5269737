/* SPDX-License-Identifier: Apache-2.0 */
/* mg_kernel_default_off: without managed_races=1 (the default until it
 * is measured on a GPU) syncguard leaves managed memory alone: the race
 * of mg_kernel_race goes unreported, and the host reads the old words,
 * as it would without syncguard.
 *
 * SG-EXPECT: silent
 */
/* The program of mg_kernel_race.c with the macros below. */
#define MG_BEFORE_READ MG_NONE
#define MG_WANT SGT_OLD
#include "mg_kernel_race.c"
