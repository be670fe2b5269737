/* SPDX-License-Identifier: Apache-2.0 */
/* m_copy2d_unaligned_legacy_ok: the copy of m_copy2d_unaligned_nonblocking_race is held on the legacy stream: cuMemcpy2DUnaligned with a pageable destination returns once it is complete, so reading its destination afterwards is no race.  Twin: m_copy2d_unaligned_nonblocking_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_copy2d_unaligned_nonblocking_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_copy2d_unaligned_nonblocking_race.c"
