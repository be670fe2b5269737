/* SPDX-License-Identifier: Apache-2.0 */
/* m_pool_host_race: m_register_v1_race with an allocation from a memory pool located on the host (cuMemPoolCreate with CU_MEM_LOCATION_TYPE_HOST, cuMemAllocFromPoolAsync): page-locked, asynchronous, guarded.  Twin: m_pool_host_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_register_v1_race
 */
/* m_register_v1_race built with SG_KIND_POOL. */
#define SG_KIND_POOL 1
#include "m_register_v1_race.c"
