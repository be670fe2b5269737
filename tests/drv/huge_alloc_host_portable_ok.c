/* SPDX-License-Identifier: Apache-2.0 */
/* huge_alloc_host_portable_ok: the copy of huge_alloc_host_portable_race
 * (into a cuMemAllocHost block on syncguard's huge pages, from another
 * context), read only after cuStreamSynchronize: no race. Twin of
 * huge_alloc_host_portable_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of huge_alloc_host_portable_race: the same program, with the
 * lines under #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "huge_alloc_host_portable_race.c"
