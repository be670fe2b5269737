/* SPDX-License-Identifier: Apache-2.0 */
/* m_h2h_async_pinned_ok: host-to-host cuMemcpyAsync between pinned buffers is synchronous for the host: reading the destination and writing both after the call is no race.  Twin: m_h2h_async_device_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_h2h_async_device_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_h2h_async_device_race.c"
