/* SPDX-License-Identifier: Apache-2.0 */
/* m_register_v1_ok: the copy of m_register_v1_race into memory registered through the CUDA 4.0 ABI, read after cuStreamSynchronize: no race.  Twin: m_register_v1_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_register_v1_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_register_v1_race.c"
