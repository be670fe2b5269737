# SPDX-License-Identifier: Apache-2.0
# Unit tests of the floors below the preload layer, linked against their
# convenience libraries only (never libsyncguard.so, never the emulator):
# each prints TAP-like "ok N - ..." lines and fails on any "not ok".
# Included from tests/Makefile.am; paths relative to tests/.
UNIT_TESTS = unit/t-vclock unit/t-streams unit/t-events unit/t-shape unit/t-options \
	unit/t-suppress unit/t-spans unit/t-strings unit/t-emulate unit/t-emulate-a64 unit/t-copy-index \
	unit/t-sample unit/t-kernel-release unit/t-graph-walk unit/t-log
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)
noinst_HEADERS += unit/unit.h

UNIT_CPPFLAGS = $(CUDA_CPPFLAGS) -I$(top_srcdir)/src -I$(srcdir)/unit
UNIT_CFLAGS = $(AM_CFLAGS) -Wmissing-prototypes -Wstrict-prototypes -Wshadow
sg_base = $(top_builddir)/src/base/libsg_base.la
sg_capture = $(top_builddir)/src/capture/libsg_capture.la
sg_model = $(top_builddir)/src/model/libsg_model.la
sg_guard = $(top_builddir)/src/guard/libsg_guard.la
sg_report = $(top_builddir)/src/report/libsg_report.la
sg_work = $(top_builddir)/src/work/libsg_work.la
sg_fault = $(top_builddir)/src/fault/libsg_fault.la

unit_t_vclock_SOURCES = unit/t-vclock.c
unit_t_vclock_CPPFLAGS = $(UNIT_CPPFLAGS)
unit_t_vclock_CFLAGS = $(UNIT_CFLAGS)
unit_t_vclock_LDADD = $(sg_model) $(sg_base)

# The driver is the test's own stand-in (sg_driver, sg_current_ctx).
unit_t_streams_SOURCES = unit/t-streams.c
unit_t_streams_CPPFLAGS = $(UNIT_CPPFLAGS)
unit_t_streams_CFLAGS = $(UNIT_CFLAGS)
unit_t_streams_LDADD = $(sg_model) $(sg_base) $(AX_PTHREAD_LIBS)

unit_t_events_SOURCES = unit/t-events.c
unit_t_events_CPPFLAGS = $(UNIT_CPPFLAGS)
unit_t_events_CFLAGS = $(UNIT_CFLAGS)
unit_t_events_LDADD = $(sg_model) $(sg_base)

unit_t_shape_SOURCES = unit/t-shape.c
unit_t_shape_CPPFLAGS = $(UNIT_CPPFLAGS)
unit_t_shape_CFLAGS = $(UNIT_CFLAGS)
unit_t_shape_LDADD = $(sg_model) $(sg_base)

unit_t_options_SOURCES = unit/t-options.c
unit_t_options_CPPFLAGS = $(UNIT_CPPFLAGS)
unit_t_options_CFLAGS = $(UNIT_CFLAGS)
unit_t_options_LDADD = $(sg_base)

unit_t_suppress_SOURCES = unit/t-suppress.c
unit_t_suppress_CPPFLAGS = $(UNIT_CPPFLAGS)
unit_t_suppress_CFLAGS = $(UNIT_CFLAGS)
unit_t_suppress_LDADD = $(sg_report) $(sg_base)

unit_t_spans_SOURCES = unit/t-spans.c
unit_t_spans_CPPFLAGS = $(UNIT_CPPFLAGS)
unit_t_spans_CFLAGS = $(UNIT_CFLAGS)
unit_t_spans_LDADD = $(sg_guard) $(sg_model) $(sg_base) $(AX_PTHREAD_LIBS)

unit_t_strings_SOURCES = unit/t-strings.c
unit_t_strings_CPPFLAGS = $(UNIT_CPPFLAGS)
unit_t_strings_CFLAGS = $(UNIT_CFLAGS)
unit_t_strings_LDADD = $(sg_fault) $(sg_base)

unit_t_emulate_SOURCES = unit/t-emulate.c
unit_t_emulate_CPPFLAGS = $(UNIT_CPPFLAGS)
unit_t_emulate_CFLAGS = $(UNIT_CFLAGS)
unit_t_emulate_LDADD = $(sg_fault) $(sg_base)

# The aarch64 decoder (a skip elsewhere, as t-emulate and t-strings are on aarch64).
unit_t_emulate_a64_SOURCES = unit/t-emulate-a64.c
unit_t_emulate_a64_CPPFLAGS = $(UNIT_CPPFLAGS)
unit_t_emulate_a64_CFLAGS = $(UNIT_CFLAGS)
unit_t_emulate_a64_LDADD = $(sg_fault) $(sg_base)

unit_t_copy_index_SOURCES = unit/t-copy-index.c
unit_t_copy_index_CPPFLAGS = $(UNIT_CPPFLAGS)
unit_t_copy_index_CFLAGS = $(UNIT_CFLAGS)
unit_t_copy_index_LDADD = $(sg_model) $(sg_base)

# The table of sites names Python frames (capture/python.c).
unit_t_sample_SOURCES = unit/t-sample.c
unit_t_sample_CPPFLAGS = $(UNIT_CPPFLAGS)
unit_t_sample_CFLAGS = $(UNIT_CFLAGS)
unit_t_sample_LDADD = $(sg_model) $(sg_capture) $(sg_base) -ldl

unit_t_kernel_release_SOURCES = unit/t-kernel-release.c
unit_t_kernel_release_CPPFLAGS = $(UNIT_CPPFLAGS)
unit_t_kernel_release_CFLAGS = $(UNIT_CFLAGS)
unit_t_kernel_release_LDADD = $(sg_base)

# The driver and the kernel parameters the walk reads are the test's
# stand-ins (sg_driver, sg_kparams_of, sg_kernel_pointer_values).
unit_t_graph_walk_SOURCES = unit/t-graph-walk.c
unit_t_graph_walk_CPPFLAGS = $(UNIT_CPPFLAGS)
unit_t_graph_walk_CFLAGS = $(UNIT_CFLAGS)
unit_t_graph_walk_LDADD = $(sg_work)

unit_t_log_SOURCES = unit/t-log.c
unit_t_log_CPPFLAGS = $(UNIT_CPPFLAGS)
unit_t_log_CFLAGS = $(UNIT_CFLAGS)
unit_t_log_LDADD = $(sg_base)
