/* SPDX-License-Identifier: Apache-2.0 */
/* m_sync_copy2d_d2d_legacy_ok: synchronous work on the legacy default stream.  As
 * m_sync_memset_legacy_ok, the call being a synchronous 2D copy between
 * device buffers (cuMemcpy2D).
 * Synchronizing the blocking stream B afterwards observes the copy.  Twin:
 * m_sync_memset_nonblocking_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_sync_memset_nonblocking_race: the same program, with the
 * lines under #ifdef SG_TWIN there, this stream A and this call. */
#define SG_TWIN 1
#define SG_A_FLAGS CU_STREAM_DEFAULT
#define SG_LEGACY_OP cuMemcpy2D(&(CUDA_MEMCPY2D){ .srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = scratch2, .srcPitch = 64, .dstMemoryType = CU_MEMORYTYPE_DEVICE, .dstDevice = scratch, .dstPitch = 64, .WidthInBytes = 32, .Height = 4 })
#include "m_sync_memset_nonblocking_race.c"
