/* SPDX-License-Identifier: Apache-2.0 */
/* mg_kernel_legacy_race: the host synchronizes only the
 * legacy default stream, which a non-blocking stream's kernel does not
 * follow, and reads the managed words: reported.
 *
 * SG-OPTIONS: managed_races=1
 * SG-EXPECT: kernel-early-host-read
 * SG-GREP: host read of managed memory that a kernel
 */
/* The program of mg_kernel_race.c with the macros below. */
#define MG_BEFORE_READ MG_LEGACY
#include "mg_kernel_race.c"
