"""Hypothesis profiles: ``dev`` by default, ``ci`` when ``HYPOTHESIS_PROFILE=ci``.

Both are derandomized, so a run is the same on every machine and a failure found once is
found again. Neither has a deadline: the machines are shared, and a test that fails only
when a neighbour is busy is not deterministic.
"""

import os

from hypothesis import settings

settings.register_profile("dev", max_examples=200, derandomize=True, deadline=None)
settings.register_profile("ci", max_examples=1000, derandomize=True, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
