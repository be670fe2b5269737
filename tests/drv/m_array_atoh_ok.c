/* SPDX-License-Identifier: Apache-2.0 */
/* m_array_atoh_ok: the asynchronous copy of m_array_atoh_race (a CUDA array
 * into pinned memory, cuMemcpyAtoHAsync) runs on the legacy stream, so the
 * synchronous cuMemcpyAtoH after it on the same stream returns only once
 * it is complete: the host has observed it.  Twin: m_array_atoh_race.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#include "m_array_atoh_race.c"
