"""The replay's progress bar: rich's, over hands, on a terminal only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class progress_bar:
    """A rich progress bar over hands on a terminal; nothing otherwise."""

    def __init__(self, show: bool, total: int) -> None:
        self.show, self.total = show, total
        self.bar: Any = None

    def __enter__(self) -> Callable[[int], None]:
        if not self.show:
            return lambda n: None
        from rich.progress import Progress

        self.bar = Progress(transient=False)
        self.bar.start()
        task = self.bar.add_task("replaying hands", total=self.total or None)
        return lambda n: self.bar.advance(task, n)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
