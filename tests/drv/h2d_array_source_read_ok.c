/* SPDX-License-Identifier: Apache-2.0 */
/* h2d_array_source_read_ok: the copy of h2d_array_source_write_race
 * (cuMemcpyHtoAAsync from pinned memory into a CUDA array), the host only
 * reading the source while the copy is pending: its guard is read-only,
 * so no race.  Twin: h2d_array_source_write_race.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#include "h2d_array_source_write_race.c"
