/* SPDX-License-Identifier: Apache-2.0 */
/* k_learn_cache_ok: what one process learnt, the next one knows. A child
 * process launches sgt_fill twice (learn_launches=2), synchronized, and
 * exits: syncguard writes the kernel's set to the cache folder. Then this
 * process, which had not touched CUDA before (a child may not use its
 * parent's), launches it once: the set comes from the cache (the module
 * image is the same), nothing is instrumented, and the launch is guarded
 * as learnt: the host reads after synchronizing, a correct program, no
 * report. The cache holds one file, for the module.
 *
 * SG-LEARN
 * SG-OPTIONS: learn_launches=2:verbosity=2
 * SG-EXPECT: silent
 * SG-GREP: learnt kernel sgt_fill (instrumented here, 2 launches): ptr0 w \[0,16384)
 * SG-GREP: learnt kernel sgt_fill (from the cache, 2 launches): ptr0 w \[0,16384)
 * SG-GREP: the cache folder holds 1 file
 */
#include <dirent.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "k_launch.h"

static unsigned fill_and_read(unsigned launches)
{
    CUdeviceptr dev, alias;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUfunction f = sgt_kernel("sgt_fill");
    uint32_t *words = k_mapped_words(&alias);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    unsigned wrong = 0;
    for (unsigned i = 0; i < launches; i++) {
        sgt_launch_fill(f, s, alias, SGT_WORDS, SGT_NEW + i);
        SGT_CHECK(cuStreamSynchronize(s));
        wrong += SGT_COUNT_WRONG(words, SGT_WORDS, SGT_NEW + i);
    }
    SGT_CHECK(cuMemFreeHost(words));
    sgt_free_buffers(dev, host);
    return wrong;
}

static unsigned files_in(const char *dir)
{
    unsigned n = 0;
    DIR *d = dir ? opendir(dir) : NULL;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.' && !strstr(e->d_name, ".lock");
    if (d)
        closedir(d);
    return n;
}

int main(void)
{
    fflush(stdout);
    pid_t child = fork();
    if (child == 0)
        exit(fill_and_read(2) ? 1 : 0);
    int status = 0;
    SGT_EXPECT(child > 0 && waitpid(child, &status, 0) == child);
    unsigned wrong = !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    printf("the cache folder holds %u file%s\n", files_in(getenv("SG_TEST_CACHE_DIR")),
           files_in(getenv("SG_TEST_CACHE_DIR")) == 1 ? "" : "s");
    wrong += fill_and_read(1);
    return sgt_verdict(wrong, "the words after each synchronized launch");
}
