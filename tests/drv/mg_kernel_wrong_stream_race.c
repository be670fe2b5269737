/* SPDX-License-Identifier: Apache-2.0 */
/* mg_kernel_wrong_stream_race: the host synchronizes another
 * stream, not the kernel's, before reading the managed words: the kernel
 * has run by then, but the host never observed it: reported (latent),
 * and the host reads what the kernel wrote.
 *
 * SG-OPTIONS: managed_races=1
 * SG-EXPECT: kernel-early-host-read
 * SG-GREP: host read of managed memory that a kernel
 */
/* The program of mg_kernel_race.c with the macros below. */
#define MG_BEFORE_READ MG_WRONG_STREAM
#include "mg_kernel_race.c"
