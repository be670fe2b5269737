# SPDX-License-Identifier: Apache-2.0
"""Races while pytest imports it: during collection, outside any test."""
import cuda_helpers as h

COLLECTED_OK = h.racy_read()  # SG-LINE: collection


def test_after_collection_race():
    assert COLLECTED_OK
