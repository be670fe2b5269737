# SPDX-License-Identifier: Apache-2.0
# tests/emu/local.mk - the CPU emulation of the CUDA driver API, the sgtest
# helpers and the emulator's self-tests.  Included from tests/Makefile.am,
# so paths are relative to tests/.  See tests/README.md.

## The emulator: emu/.libs/libcuda.so.1, a real shared library (not a
## convenience one, hence -rpath) that programs load in place of the
## driver.  -fvisibility=hidden exports only the cu* entry points (and the
## test hook); -Bsymbolic-functions keeps the library's own references,
## such as the addresses cuGetProcAddress hands out, bound to its own
## functions when a preloaded library interposes the same names.
check_LTLIBRARIES += emu/libcuda.la
emu_libcuda_la_SOURCES = \
	emu/core.c \
	emu/device.c \
	emu/context.c \
	emu/stream.c \
	emu/engine.c \
	emu/hostwait.c \
	emu/event.c \
	emu/hostfn.c \
	emu/kernel.c \
	emu/sanitizer.c \
	emu/kernel_multi.c \
	emu/kernel_legacy.c \
	emu/memop.c \
	emu/registry.c \
	emu/memory.c \
	emu/hostkinds.c \
	emu/pointer.c \
	emu/dma.c \
	emu/copy.c \
	emu/copy_api.c \
	emu/copy3d.c \
	emu/batch.c \
	emu/array.c \
	emu/memset.c \
	emu/capture.c \
	emu/graph.c \
	emu/graph_node.c \
	emu/graph_exec.c \
	emu/graph_update.c \
	emu/errors.c \
	emu/procaddr.c \
	emu/proctable.c
emu_libcuda_la_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS) -I$(top_srcdir)/src
emu_libcuda_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden -pthread
emu_libcuda_la_LDFLAGS = -rpath /nowhere -version-info 1:0:0 -no-undefined -pthread \
	-Wl,-Bsymbolic-functions
noinst_HEADERS += emu/emu.h emu/copy.h emu/proctable.h emu/sgemu.h

## Helpers for test programs (a convenience library: link it together with
## a libcuda, the emulator's or a real one).
check_LTLIBRARIES += lib/libsgtest.la
lib_libsgtest_la_SOURCES = lib/sgtest.c
lib_libsgtest_la_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS)
lib_libsgtest_la_CFLAGS = $(AM_CFLAGS) -pthread
noinst_HEADERS += lib/sgtest.h lib/sgt_shapes.h lib/sgt_robust.h lib/sgt_hostkinds.h \
	lib/sgt_x86_only.h

## The emulator's self-tests: plain programs (exit 0 pass, 77 skip, other
## fail) linked straight against the emulator, run without syncguard.
SGEMU_TESTS = \
	emu/t-async-pinned \
	emu/t-dma-protected \
	emu/t-pageable-async \
	emu/t-legacy-stream \
	emu/t-wait-event \
	emu/t-event \
	emu/t-hostfn \
	emu/t-procaddr \
	emu/t-host-wait \
	emu/t-errors \
	emu/t-context \
	emu/t-memory \
	emu/t-ptds \
	emu/t-stream-destroy \
	emu/t-capture \
	emu/t-graph \
	emu/t-batch \
	emu/t-devices \
	emu/t-hostkinds \
	emu/t-graph-update \
	emu/t-kernel \
	emu/t-launch
check_PROGRAMS += $(SGEMU_TESTS)
TESTS += $(SGEMU_TESTS)
noinst_HEADERS += emu/t-util.h
EXTRA_DIST += README.md

SGEMU_TEST_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS) -I$(srcdir)/lib -I$(srcdir)/emu
SGEMU_TEST_LDADD = lib/libsgtest.la emu/libcuda.la $(AX_PTHREAD_LIBS)

emu_t_async_pinned_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_async_pinned_LDADD = $(SGEMU_TEST_LDADD)
emu_t_dma_protected_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_dma_protected_LDADD = $(SGEMU_TEST_LDADD)
emu_t_pageable_async_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_pageable_async_LDADD = $(SGEMU_TEST_LDADD)
emu_t_legacy_stream_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_legacy_stream_LDADD = $(SGEMU_TEST_LDADD)
emu_t_wait_event_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_wait_event_LDADD = $(SGEMU_TEST_LDADD)
emu_t_event_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_event_LDADD = $(SGEMU_TEST_LDADD)
emu_t_hostfn_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_hostfn_LDADD = $(SGEMU_TEST_LDADD)
emu_t_procaddr_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_procaddr_LDADD = $(SGEMU_TEST_LDADD)
emu_t_host_wait_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_host_wait_LDADD = $(SGEMU_TEST_LDADD)
emu_t_errors_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_errors_LDADD = $(SGEMU_TEST_LDADD)
emu_t_context_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_context_LDADD = $(SGEMU_TEST_LDADD)
emu_t_memory_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_memory_LDADD = $(SGEMU_TEST_LDADD)
emu_t_ptds_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_ptds_LDADD = $(SGEMU_TEST_LDADD)
emu_t_stream_destroy_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_stream_destroy_LDADD = $(SGEMU_TEST_LDADD)
emu_t_capture_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_capture_LDADD = $(SGEMU_TEST_LDADD)
emu_t_graph_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_graph_LDADD = $(SGEMU_TEST_LDADD) -ldl
emu_t_batch_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_batch_LDADD = $(SGEMU_TEST_LDADD) -ldl
emu_t_devices_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_devices_LDADD = $(SGEMU_TEST_LDADD)
emu_t_hostkinds_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_hostkinds_LDADD = $(SGEMU_TEST_LDADD)
emu_t_graph_update_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_graph_update_LDADD = $(SGEMU_TEST_LDADD)
emu_t_kernel_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_kernel_LDADD = $(SGEMU_TEST_LDADD)
emu_t_launch_CPPFLAGS = $(SGEMU_TEST_CPPFLAGS)
emu_t_launch_LDADD = $(SGEMU_TEST_LDADD)
