/* SPDX-License-Identifier: Apache-2.0 */
/* m_batch_v13000_ok: batch copies (the CUDA 13.0 ABI of cuMemcpyBatchAsync,
 * from cuGetProcAddress at version 13000).  Two D2H copies into pinned
 * memory; the host synchronizes the stream, then reads: no race.  Twin:
 * m_batch_v13000_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_batch_v13000_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_batch_v13000_race.c"
