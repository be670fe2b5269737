/* SPDX-License-Identifier: Apache-2.0 */
/* k_sample_two_allocs_ok: k_sample_two_allocs_race with no early read:
 * each step synchronizes before the host looks at either allocation.
 * Silent, both right, and the site counts one launch a step.
 *
 * SG-OPTIONS: sample=2:sample_first=0:verbosity=1
 * SG-EXPECT: silent
 * SG-GREP: ^racy reads that waited for their launch:$
 * SG-GREP: ^==[0-9]*==syncguard: stats: .*, copies_sampled_out=3,
 * SG-GREP: ^==[0-9]*==syncguard:   3 guarded, 3 sampled out: k_sample_two_allocs_race.c:[0-9]* in main$
 */
#define SG_TWIN 1
#include "k_sample_two_allocs_race.c"
