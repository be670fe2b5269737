/* SPDX-License-Identifier: Apache-2.0 */
/* k_launch_event_race: a kernel launched with cuLaunchKernelEx and the
 * attribute CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT, which records its
 * event "once all blocks of the kernel have begun execution", not when the
 * kernel completes.  The kernel begins, then waits for a gate before it
 * writes the pinned words it is given; the host synchronizes the event and
 * reads the words: a race, reported as the kernel's.  Twins:
 * k_launch_event_ok (what the event does show: a copy enqueued before the
 * kernel is complete), and k_programmatic_event_race and _ok (the same
 * with CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT, triggerAtBlockStart set).
 *
 * On a GPU the event may fire only when the kernel completes ("best
 * effort"), so there the gate opens 200 ms after the test asks, before the
 * event is synchronized; on the emulator, which fires the event as the
 * kernel begins, exactly when the racy read waits.
 *
 * SG-EXPECT: kernel-early-host-read
 * SG-GREP: Kernel sgt_gated_fill launched on .* by cuLaunchKernelEx
 */
/* This program is also built as its twins: SG_TWIN for the lines under
 * #ifdef SG_TWIN, SG_PROGRAMMATIC for the programmatic event. */
#include "k_launch.h"

static CUlaunchAttribute event_attribute(CUevent e)
{
    CUlaunchAttribute a;
    memset(&a, 0, sizeof a);
#ifdef SG_PROGRAMMATIC
    a.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT;
    a.value.programmaticEvent.event = e;
    a.value.programmaticEvent.triggerAtBlockStart = 1; /* each block triggers it as it starts */
#else
    a.id = CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT;
    a.value.launchCompletionEvent.event = e;
#endif
    return a;
}

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    k_load_kernels(); /* before any hold: a load waits for the device */
    uint32_t *copied = sgt_pinned(SGT_BYTES);
    for (unsigned i = 0; i < SGT_WORDS; i++)
        copied[i] = SGT_OLD;
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUevent e = sgt_event();
    CUdeviceptr flag;
    cuuint32_t value;
    sgt_hold *gate = sgt_hold_gate(&flag, &value);
    CUlaunchAttribute attr = event_attribute(e);

    SGT_CHECK(cuMemcpyDtoHAsync(copied, dev, SGT_BYTES, s)); /* before the kernel */
    k_gated_fill_ex(s, flag, value, (CUdeviceptr)(uintptr_t)host, SGT_NEW, &attr, 1);
    if (!sgt_on_emulator())
        sgt_release_when_host_waits(gate);
    SGT_CHECK(cuEventSynchronize(e)); /* the kernel has begun */
    if (sgt_on_emulator())
        sgt_release_when_host_waits(gate);
#ifdef SG_TWIN /* k_launch_event_ok, k_programmatic_event_ok */
    unsigned wrong = SGT_COUNT_WRONG(copied, SGT_WORDS, SGT_NEW); /* done before the kernel began */
    SGT_CHECK(cuStreamSynchronize(s));
    wrong += SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    return sgt_verdict(wrong, "the copy before the kernel after its event, the kernel's words after cuStreamSynchronize");
#else
    unsigned early = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* the race: the kernel may not have written */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW) + SGT_COUNT_WRONG(copied, SGT_WORDS, SGT_NEW);
    return sgt_race_verdict(early, late, "cuStreamSynchronize");
#endif
}
