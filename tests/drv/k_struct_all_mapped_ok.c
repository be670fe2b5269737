/* SPDX-License-Identifier: Apache-2.0 */
/* k_struct_all_mapped_ok: the program of k_struct_all_mapped_race with
 * cuStreamSynchronize before the read: with kernel_all_mapped=1 too, an
 * observed launch leaves nothing to report.
 *
 * SG-OPTIONS: kernel_all_mapped=1
 * SG-EXPECT: silent
 */
/* The twin of k_struct_all_mapped_race: the same program, with the lines
 * under #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "k_struct_all_mapped_race.c"
