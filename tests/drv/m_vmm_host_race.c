/* SPDX-License-Identifier: Apache-2.0 */
/* m_vmm_host_race: m_register_v1_race with a host allocation of the virtual memory API (cuMemCreate with CU_MEM_LOCATION_TYPE_HOST, cuMemMap): page-locked, asynchronous, guarded.  Twin: m_vmm_host_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_register_v1_race
 */
/* m_register_v1_race built with SG_KIND_VMM. */
#define SG_KIND_VMM 1
#include "m_register_v1_race.c"
