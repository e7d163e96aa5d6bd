"""The shuffle: each provably-fair hand's commitment (``commitment.py``, checked by the
replay hand by hand) and the night's shuffle statistics over every shoe dealt (``rng.*``:
``shoes.py`` reads them, ``deal.py``, ``seats.py``, ``dependence.py`` and ``repeats.py``
test them, ``result.py`` corrects them together, ``night.py`` runs them all; docs/rng.md).

Nothing is imported here: the replay's worker processes import ``commitment`` alone,
without numpy's and scipy's statistics.
"""
