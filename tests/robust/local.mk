# SPDX-License-Identifier: Apache-2.0
# Robustness tests that are scripts, not driver-API programs (those are
# tests/drv/robust_*.c).  Included from tests/Makefile.am; paths relative to
# tests/.  TEST_EXTENSIONS there already has .sh (SH_LOG_COMPILER = $(SHELL)),
# and AM_TESTS_ENVIRONMENT exports SYNCGUARD_LIB and SG_LIBCUDA.
#
# pytest_faulthandler.sh runs test_faulthandler_race.py under pytest with
# the preload (skips without a python3 that has pytest).
TESTS += robust/pytest_faulthandler.sh
EXTRA_DIST += robust/pytest_faulthandler.sh robust/test_faulthandler_race.py

# log_path.sh: log_path's checks (too long, empty, %r from the environment).
TESTS += robust/log_path.sh
EXTRA_DIST += robust/log_path.sh

# suppressions_files.sh: suppressions from a FIFO, or with a NUL byte.
TESTS += robust/suppressions_files.sh
EXTRA_DIST += robust/suppressions_files.sh
