/* SPDX-License-Identifier: Apache-2.0 */
/* options_bad_value: a value outside an option's choices (mode is one of
 * report, abort, sync) is an error that stops the program at start-up with
 * exit status 1 and a message naming value and option, before main runs (so
 * main's message must not appear).
 *
 * SG-OPTIONS: mode=sometimes
 * SG-EXPECT: silent
 * SG-EXIT: 1
 * SG-GREP: invalid value 'sometimes' for option 'mode'
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
