/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_sample_rows_ok: d2h_sample_rows_race with no early read: each step
 * synchronizes before the host looks at any row. Silent, every row right,
 * and the site still counts one copy a step, whatever its rows.
 *
 * SG-OPTIONS: sample=2:sample_first=1:verbosity=1
 * SG-EXPECT: silent
 * SG-GREP: ^racy reads that waited for their copy:$
 * SG-GREP: ^==[0-9]*==syncguard: stats: .*, copies_sampled_out=1,
 * SG-GREP: ^==[0-9]*==syncguard:   2 guarded, 1 sampled out: d2h_sample_rows_race.c:[0-9]* in main$
 */
#define SG_TWIN 1
#include "d2h_sample_rows_race.c"
