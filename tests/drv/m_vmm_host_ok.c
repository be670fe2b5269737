/* SPDX-License-Identifier: Apache-2.0 */
/* m_vmm_host_ok: m_register_v1_ok with a host allocation of the virtual
 * memory API: read after cuStreamSynchronize, no race.  Twin:
 * m_vmm_host_race.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#define SG_KIND_VMM 1
#include "m_register_v1_race.c"
