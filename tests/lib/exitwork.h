/* SPDX-License-Identifier: Apache-2.0 */
#ifndef SGT_EXITWORK_H
#define SGT_EXITWORK_H
#include <stdlib.h>
/* Called by the programs that link libexitwork, so that it is needed. */
int sgt_exit_work_linked(void);
#endif
