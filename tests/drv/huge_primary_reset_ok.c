/* SPDX-License-Identifier: Apache-2.0 */
/* huge_primary_reset_ok: a pinned allocation on syncguard's huge pages
 * (huge_pinned) is freed by a reset of its context,
 * the primary one (cuDevicePrimaryCtxReset), as the driver
 * frees its own allocations then: pageable memory the program maps at its
 * address afterwards is not pinned, so an async copy into it completes
 * before its call returns and reading it right after is no race. (Were the
 * block still in syncguard's pinned table, the copy would be guarded and
 * that read reported.) Twin of huge_ctx_destroy_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of huge_ctx_destroy_race: the same program, with the lines
 * under #ifdef SG_TWIN there. */
#define SG_TWIN 1
#define HUGE_TEARDOWN TD_RESET
#include "huge_ctx_destroy_race.c"
