/* SPDX-License-Identifier: Apache-2.0 */
/* m_pool_host_ok: m_register_v1_ok with an allocation from a memory pool
 * located on the host: read after cuStreamSynchronize, no race.  Twin:
 * m_pool_host_return_ok.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#define SG_KIND_POOL 1
#include "m_register_v1_race.c"
