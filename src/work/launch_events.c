/* SPDX-License-Identifier: Apache-2.0 */
/* Events recorded by a kernel launch itself: cuLaunchKernelEx's attributes
 * CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT ("triggered once all blocks
 * of the kernel have begun execution") and
 * CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT ("guaranteed to only trigger
 * after all block in the associated kernel trigger the event", which a
 * block may do at its start, and then write more). Neither fires when the
 * kernel completes, so neither shows the host the kernel's writes: such an
 * event stands for what its stream held before the kernel, which must be
 * complete for the kernel's blocks to begin (a launch completion event is
 * "best effort" and may fire as late as completion, which changes nothing
 * to what it can be trusted with). A launch that may also overlap the
 * previous kernel (CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION)
 * begins before its stream's earlier work is known complete: its events
 * stand for nothing. Wrong either way is a report, never a hidden race. */
#include "config.h"

#include "work/kernel.h"
#include "model/model.h"
#include "model/sync.h"

/* Whether the launch may begin before the previous kernel completed. */
static int may_overlap(const CUlaunchConfig *cfg)
{
    for (unsigned i = 0; i < cfg->numAttrs; i++)
        if (cfg->attrs[i].id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION &&
            cfg->attrs[i].value.programmaticStreamSerializationAllowed)
            return 1;
    return 0;
}

static CUevent event_of(const CUlaunchAttribute *a)
{
    if (a->id == CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT)
        return a->value.launchCompletionEvent.event;
    if (a->id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT)
        return a->value.programmaticEvent.event;
    return NULL;
}

void sg_launch_events_recorded(const CUlaunchConfig *cfg, int per_thread)
{
    if (!cfg || !cfg->attrs || !cfg->numAttrs || !sg_observe_needed() ||
        sg_stream_is_capturing(cfg->hStream, per_thread))
        return;
    struct sg_vc before = { 0 };
    sg_lock(&sg_model_lock);
    if (!may_overlap(cfg)) /* what the kernel's blocks wait for: the stream's work before it */
        sg_stream_peek(sg_stream_get(cfg->hStream, per_thread), &before, NULL);
    for (unsigned i = 0; i < cfg->numAttrs; i++) {
        CUevent e = event_of(&cfg->attrs[i]);
        if (e)
            sg_event_recorded(e, &before);
    }
    sg_unlock(&sg_model_lock);
    sg_vc_free(&before);
}
