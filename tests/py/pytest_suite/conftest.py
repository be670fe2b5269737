# SPDX-License-Identifier: Apache-2.0
"""Fixtures of the suite: a function-scoped one whose teardown races (it
blames its test), a session-scoped one whose setup races (outside any
test: reported at the end of the session). With SG_SUITE_STARTUP_RACE=1
this file races as pytest loads it, before the session starts."""
import os

import pytest

import cuda_helpers as h

if os.environ.get("SG_SUITE_STARTUP_RACE") == "1":
    h.racy_read()  # SG-LINE: start-up


@pytest.fixture
def racy_teardown():
    yield
    assert h.racy_read()  # SG-LINE: fixture-teardown


@pytest.fixture(scope="session")
def racy_session_resource():
    assert h.racy_read()  # SG-LINE: session-setup
    return "ready"
