/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_verbose_log: verbosity=2 logs every guarded copy and its release; a
 * correctly synchronized program must still run to the end (logging while
 * a copy is being guarded must not deadlock), report nothing, and see the
 * copied data.
 *
 * SG-OPTIONS: verbosity=2
 * SG-EXPECT: silent
 * SG-GREP: syncguard: copy #1 .*guarded
 * SG-GREP: syncguard: copy #1 observed complete
 */
/* The twin of d2h_async_stream_sync: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "d2h_async_stream_sync.c"
