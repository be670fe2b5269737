/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_memcpy_async_generic_sync: a generic cuMemcpyAsync into pinned host
 * memory, read only after cuStreamSynchronize on its stream: no race.
 * Twin of d2h_memcpy_async_generic.
 *
 * SG-EXPECT: silent
 */
/* The twin of d2h_ctx_sync: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "d2h_ctx_sync.c"
