/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_sample_bound_race: d2h_sample_rate_race with the early reads starting
 * at step 2, right after the site's sample_first=2 guarded copies, the
 * worst place for it: the race is caught at step 4 = 2 + sample - 1, the
 * bound syncguard(7) gives (within sample=3 copies of the site from the
 * first racy one), and then on every third step.
 *
 * SG-OPTIONS: sample=3:sample_first=2:verbosity=1
 * SG-EXPECT: early-host-read
 * SG-GREP: ^racy reads that waited for their copy: 4 7 10$
 * SG-GREP: ^==[0-9]*==syncguard: 1 race reported .1 early-host-read, .*, 2 repeats not shown, 0 suppressed; 5 copies guarded$
 * SG-GREP: ^==[0-9]*==syncguard: stats: mprotect_calls=10, pages_guarded=5, faults_race=3,
 * SG-GREP: ^==[0-9]*==syncguard:   5 guarded, 7 sampled out: d2h_sample_rate_race.c:[0-9]* in main$
 */
#define RACE_FROM 2
#include "d2h_sample_rate_race.c"
