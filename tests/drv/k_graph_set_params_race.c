/* SPDX-License-Identifier: Apache-2.0 */
/* k_graph_set_params_race: a kernel node made with cuGraphAddKernelNode
 * fills device memory; after instantiation cuGraphExecKernelNodeSetParams
 * points the executable graph's node at pinned memory mapped for the
 * device (its device address).  The next launch writes the pinned words,
 * and the host reads them before observing it: reported, with the read
 * seeing the kernel's words after syncguard's wait.  Twin
 * k_graph_set_params_ok: the node points at the pinned words when made
 * and is set to device memory before the launch, so the launch writes
 * no host memory and the host's reads race with nothing.
 *
 * SG-EXPECT: kernel-early-host-read
 * SG-GREP: Kernel sgt_fill launched on stream .* by cuGraphLaunch .kernel node.
 */
#include "k_launch.h"

static void fill_params(CUDA_KERNEL_NODE_PARAMS *p, void **args)
{
    memset(p, 0, sizeof *p);
    p->func = sgt_kernel("sgt_fill");
    p->gridDimX = p->gridDimY = p->gridDimZ = 1;
    p->blockDimX = p->blockDimY = p->blockDimZ = 1;
    p->kernelParams = args;
}

int main(void)
{
    sgt_init();
    k_load_kernels(); /* before any hold: a load waits for the device */
    CUdeviceptr alias, dev = sgt_device_words(SGT_WORDS, SGT_OLD);
    uint32_t *host = k_mapped_words(&alias);
#ifdef SG_TWIN /* k_graph_set_params_ok: made on the pinned words, set to device memory */
    CUdeviceptr made_with = alias, set_to = dev;
#else
    CUdeviceptr made_with = dev, set_to = alias;
#endif
    unsigned n = SGT_WORDS, v = SGT_NEW;
    void *args[] = { &made_with, &n, &v };
    CUDA_KERNEL_NODE_PARAMS p;
    fill_params(&p, args);
    CUgraph g;
    CUgraphNode node;
    CUgraphExec exec;
    SGT_CHECK(cuGraphCreate(&g, 0));
    SGT_CHECK(cuGraphAddKernelNode(&node, g, NULL, 0, &p));
    SGT_CHECK(cuGraphInstantiate(&exec, g, 0));
    args[0] = &set_to;
    SGT_CHECK(cuGraphExecKernelNodeSetParams(exec, node, &p));
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(exec, s));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN
    /* the launch writes device memory only: the host's words stay its own */
    for (unsigned i = 0; i < SGT_WORDS; i++)
        host[i] = SGT_NEW;
#endif
    unsigned early = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* the race, unless twin */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
#ifdef SG_TWIN
    uint32_t back[SGT_WORDS];
    SGT_CHECK(cuMemcpyDtoH(back, dev, sizeof back));
    late += SGT_COUNT_WRONG(back, SGT_WORDS, SGT_NEW); /* the device words were filled */
#endif
    SGT_CHECK(cuGraphExecDestroy(exec));
    SGT_CHECK(cuGraphDestroy(g));
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    return sgt_race_verdict(early, late, "cuStreamSynchronize");
}
