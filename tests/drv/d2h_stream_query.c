/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_stream_query: cuStreamQuery on the copy's stream, polled until it
 * returns CUDA_SUCCESS.  That success observes the completion of everything
 * enqueued on the stream, the cuMemcpyDtoHAsync included (a
 * CUDA_ERROR_NOT_READY answer does not), so the read afterwards is no race.
 *
 * A query is no host wait, so the stream's hold is released explicitly
 * after one query has answered CUDA_ERROR_NOT_READY.
 *
 * SG-EXPECT: silent
 */
/* The twin of d2h_event_query: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "d2h_event_query.c"
