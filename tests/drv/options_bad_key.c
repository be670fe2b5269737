/* SPDX-License-Identifier: Apache-2.0 */
/* options_bad_key: an unknown key in SYNCGUARD_OPTIONS is an error that
 * stops the program at start-up with exit status 1 and a message naming the
 * key, before main runs (so main's message must not appear).
 *
 * SG-OPTIONS: bogus=1
 * SG-EXPECT: silent
 * SG-EXIT: 1
 * SG-GREP: unknown option 'bogus'
 * SG-NOGREP: ^main ran
 * SG-NO-CHECK
 */
#include <cuda.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    printf("main ran: syncguard accepted a bad option\n");
    return 0;
}
