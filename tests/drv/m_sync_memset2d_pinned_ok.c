/* SPDX-License-Identifier: Apache-2.0 */
/* m_sync_memset2d_pinned_ok: as m_sync_memset_pinned_ok, the memset being
 * the 2D form (cuMemsetD2D32: 4 rows of 16 words, no gap between them),
 * as synchronous on pinned memory as the 1D one.  Twin:
 * m_sync_memset_pinned_race.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#define SG_PINNED_OP cuMemsetD2D32((CUdeviceptr)(uintptr_t)mark, 16 * sizeof *mark, MARK, 16, 4)
#include "m_sync_memset_pinned_race.c"
