/* SPDX-License-Identifier: Apache-2.0 */
/* k_alias_stream_query_ok: the program of k_alias_read_race, but the host
 * polls cuStreamQuery until it answers CUDA_SUCCESS before reading, which
 * observes the launch: no report.
 *
 * SG-EXPECT: silent
 */
/* The twin of k_alias_read_race: the same program, with the lines under #ifdef SG_TWIN
 * there. */
#define SG_TWIN 1
#include "k_alias_read_race.c"
