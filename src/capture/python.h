/* SPDX-License-Identifier: Apache-2.0 */
/* Python frames of a native stack: which Python function and line a
 * CPython program (3.9 to 3.13) was running when it enqueued a copy or
 * touched its memory. Capture reads the interpreter's frame structures of
 * the calling thread directly: no allocation, no locks, no GIL, no link
 * to libpython, safe in the fault handler. In a process that is not
 * CPython it costs one load and returns 0. */
#ifndef SG_CAPTURE_PYTHON_H
#define SG_CAPTURE_PYTHON_H

#include <stddef.h>
#include <stdint.h>

#define SG_MAX_PYFRAMES 16

struct sg_pyframe {
    uintptr_t code; /* the PyCodeObject */
    int lasti;      /* instruction offset (bytes) in it; -1 if unknown */
};

struct sg_pysym {
    char function[256];
    char file[512];
    int line; /* 0 when unknown */
};

/* Innermost frame first. Returns the number of frames (0: not Python, or
 * no Python frame on this thread). Async-signal-safe. */
int sg_python_capture(struct sg_pyframe *out, int max);
/* Names a captured frame; normal context, while its code object lives
 * (the reporter thread soon after the capture, or the capturing thread
 * while the frame still runs). 0 on success. */
int sg_python_symbolize(const struct sg_pyframe *f, struct sg_pysym *out);
/* Looks for the interpreter once (normal context; from sg_init). */
void sg_python_init(void);

#endif
