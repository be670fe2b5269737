/* SPDX-License-Identifier: Apache-2.0 */
/* mg_kernel_query_race: the host queries the kernel's
 * stream, which answers not ready, and reads the managed words anyway:
 * reported, and the read waits for the kernel.
 *
 * SG-OPTIONS: managed_races=1
 * SG-EXPECT: kernel-early-host-read
 * SG-GREP: host read of managed memory that a kernel
 */
/* The program of mg_kernel_race.c with the macros below. */
#define MG_BEFORE_READ MG_QUERY
#include "mg_kernel_race.c"
