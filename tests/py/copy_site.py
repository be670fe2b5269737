# SPDX-License-Identifier: Apache-2.0
"""The enqueue side of test_python_frames.py, in a file of its own so that
the report must name two different Python files."""


def enqueue_copy(cu, host, dev, nbytes, stream):
    # The guarded copy: ctypes drops the GIL around the driver call, as
    # PyTorch does around its C++ ops.
    return cu.cuMemcpyDtoHAsync_v2(host, dev, nbytes, stream)  # SG-LINE: copy


def stage_batch(cu, host, dev, nbytes, stream, result):
    result.append(enqueue_copy(cu, host, dev, nbytes, stream))  # SG-LINE: stage
