# SPDX-License-Identifier: Apache-2.0
# tests/report/local.mk - the report tests: text report (golden file),
# JSON Lines, suppressions, exit summary and colors, per-process files,
# syncguard-report. Included from tests/Makefile.am, so paths are relative
# to tests/; the .py tests run with PY_LOG_COMPILER. Each t-*.py exits 0
# pass, 1 fail, 77 skip with one verdict line; see report/reportlib.py for
# the environment they read (SYNCGUARD_LIB, SG_DRV_DIR, SG_REPORT_BIN_DIR).

## Forks children that race (and races repeatedly): t-multiprocess,
## t-summary, t-suppress.
check_PROGRAMS += report/fork_race
report_fork_race_SOURCES = report/fork_race.c

REPORT_TESTS = \
	report/t-golden-text.py \
	report/t-json.py \
	report/t-suppress.py \
	report/t-summary.py \
	report/t-multiprocess.py \
	report/t-report-tool.py \
	report/t-report-formats.py \
	report/t-sample-json.py

TESTS += $(REPORT_TESTS)
EXTRA_DIST += $(REPORT_TESTS) report/reportlib.py \
	report/d2h_async_read_race.golden report/d2h_async_read_race.noinline.golden \
	report/sarif-2.1.0-subset.schema.json
