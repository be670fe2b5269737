/* SPDX-License-Identifier: Apache-2.0 */
/* m_pageable_d2h_async_ok: the pageable async copy is on the pinned copy's
 * own stream: when it returns, the pinned copy before it is complete, and
 * the read is covered. Twin of m_pageable_d2h_async_race.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#include "m_pageable_d2h_async_race.c"
