/* SPDX-License-Identifier: Apache-2.0 */
/* m_batch_v12080_ok: batch copies (the CUDA 12.8 ABI of cuMemcpyBatchAsync,
 * from cuGetProcAddress at version 12080).  Two D2H copies into pinned
 * memory; the host synchronizes the stream, then reads: no race.  Twin:
 * m_batch_v12080_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_batch_v12080_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_batch_v12080_race.c"
