/* SPDX-License-Identifier: Apache-2.0 */
/* m_pool_host_return_ok: m_register_v1_race with an allocation from a
 * memory pool located on the host (cuMemPoolCreate with
 * CU_MEM_LOCATION_TYPE_HOST, cuMemAllocFromPoolAsync), read as soon as the
 * copy returns.  On the real driver (CUDA 13.0, driver 580, GPU run 20) a
 * device-to-host cuMemcpyAsync into such memory returns only once it has
 * completed, as into pageable memory, and the driver gives its range no
 * start address: the read sees the copied data, no race, no report.
 * Twin: m_pool_host_ok (reads after cuStreamSynchronize).
 *
 * SG-EXPECT: silent
 */
/* m_register_v1_race built with SG_KIND_POOL. */
#define SG_KIND_POOL 1
#include "m_register_v1_race.c"
