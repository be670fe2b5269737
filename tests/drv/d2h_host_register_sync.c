/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_host_register_sync: an async copy into malloc'ed memory registered
 * with cuMemHostRegister, read only after cuStreamSynchronize on its
 * stream: no race.  Twin of d2h_host_register.
 *
 * SG-EXPECT: silent
 */
/* The twin of d2h_host_register: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "d2h_host_register.c"
