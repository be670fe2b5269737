/* SPDX-License-Identifier: Apache-2.0 */
/* m_stream_query_poll_ok: cuStreamQuery.  Polling cuStreamQuery until it
 * returns CUDA_SUCCESS observes the completion of all the stream's work:
 * the read afterwards is no race.  Twin: m_stream_query_notready_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_stream_query_notready_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_stream_query_notready_race.c"
