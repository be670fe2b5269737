/* SPDX-License-Identifier: Apache-2.0 */
/* robust_dlopen_ctor_ok: see robust_dlopen_ctor.h.  The program has
 * synchronized with the copy before the dlopen(); the constructor's read,
 * under the loader lock, is no race: silent, correct data.
 *
 * SG-EXPECT: silent
 */
#include "robust_dlopen_ctor.h"

int main(void)
{
    return ctor_main(1);
}
