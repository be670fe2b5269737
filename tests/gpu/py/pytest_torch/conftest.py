# SPDX-License-Identifier: Apache-2.0
"""The PyTorch suite of tests/gpu/pytest-check.sh: skipped as a whole when
torch or a GPU is missing."""
import pytest

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("torch sees no CUDA device", allow_module_level=True)
