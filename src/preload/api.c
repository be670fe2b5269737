/* SPDX-License-Identifier: Apache-2.0 */
/* The exported C API, include/syncguard/syncguard.h (syncguard-api(3)):
 * thin entries over the report floor's table (report/api.c) and the
 * context label (base/context.c). */
#include "config.h"

#include <syncguard/syncguard.h>

#include "base/context.h"
#include "preload/shim.h"
#include "report/api.h"

SG_EXPORT int syncguard_api_version(void)
{
    return SYNCGUARD_API_VERSION;
}

SG_EXPORT unsigned long syncguard_race_count(void)
{
    return sg_api_race_count();
}

SG_EXPORT size_t syncguard_races_json(unsigned long since, char *buf, size_t len)
{
    return sg_api_races_json(since, buf, len);
}

SG_EXPORT void syncguard_set_context(const char *label)
{
    sg_context_set(label);
}
