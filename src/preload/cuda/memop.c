/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of the stream memory operations (write, wait, batch): stream work
 * with no host side. */
#include "config.h"

#include "model/sync.h"
#include "preload/shim.h"

#define MEMOP_PARAMS(T) (CUstream s, CUdeviceptr addr, T v, unsigned int flags)
SG_STREAM_WORK(cuStreamWriteValue32_v2, 0, s, MEMOP_PARAMS(cuuint32_t), s, addr, v, flags)
SG_STREAM_WORK(cuStreamWriteValue32_v2_ptsz, 1, s, MEMOP_PARAMS(cuuint32_t), s, addr, v, flags)
SG_STREAM_WORK(cuStreamWaitValue32_v2, 0, s, MEMOP_PARAMS(cuuint32_t), s, addr, v, flags)
SG_STREAM_WORK(cuStreamWaitValue32_v2_ptsz, 1, s, MEMOP_PARAMS(cuuint32_t), s, addr, v, flags)
SG_STREAM_WORK(cuStreamWriteValue64_v2, 0, s, MEMOP_PARAMS(cuuint64_t), s, addr, v, flags)
SG_STREAM_WORK(cuStreamWriteValue64_v2_ptsz, 1, s, MEMOP_PARAMS(cuuint64_t), s, addr, v, flags)
SG_STREAM_WORK(cuStreamWaitValue64_v2, 0, s, MEMOP_PARAMS(cuuint64_t), s, addr, v, flags)
SG_STREAM_WORK(cuStreamWaitValue64_v2_ptsz, 1, s, MEMOP_PARAMS(cuuint64_t), s, addr, v, flags)

#define BATCH_MEMOP_PARAMS \
    (CUstream s, unsigned int n, CUstreamBatchMemOpParams *ops, unsigned int flags)
SG_STREAM_WORK(cuStreamBatchMemOp_v2, 0, s, BATCH_MEMOP_PARAMS, s, n, ops, flags)
SG_STREAM_WORK(cuStreamBatchMemOp_v2_ptsz, 1, s, BATCH_MEMOP_PARAMS, s, n, ops, flags)
