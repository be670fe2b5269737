/* SPDX-License-Identifier: Apache-2.0 */
/* m_ptds_null_ptsz_ok: per-thread default stream.  NULL passed to a _ptsz
 * entry point (cuGetProcAddress with
 * CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) is the calling thread's
 * per-thread stream, the same stream CU_STREAM_PER_THREAD names in the
 * plain ABI: synchronizing that observes the copy.  Twin:
 * m_ptds_null_ptsz_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_ptds_null_ptsz_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_ptds_null_ptsz_race.c"
