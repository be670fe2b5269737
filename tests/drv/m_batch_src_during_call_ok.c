/* SPDX-License-Identifier: Apache-2.0 */
/* m_batch_src_during_call_ok: the batch copy of m_batch_src_stream_order_race with CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL: the source is the program's once the call returns.  Twin: m_batch_src_stream_order_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_batch_src_stream_order_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_batch_src_stream_order_race.c"
