"""Scale-out on a Dask distributed cluster (the optional extra ``rummy-audit[dask]``).

``rummy-audit replay LOGS --out OUT --scheduler tcp://HOST:8786`` audits the same units as
the local process pool, buckets of complete games (a game is never cut), on the cluster's
workers. A worker reads its own bucket, the checked and encoded rows of its games that the
staging step wrote under ``OUT``, writes its results there itself and sends back a count
of hands; the outputs are sorted before they are written, so they are the same bytes as
a local run's, whichever worker finished first. The ``Staging`` value (paths and small
metadata, about 1 MB for a million hands) reaches each worker once.

The workers must see ``OUT`` at the same path as this process (a shared filesystem, as
they would share the log root), and run the same version of rummy-audit. The platform's
rulesets (``--rules DIR``) travel inside the ``Staging`` value, as text: the workers need
not see ``DIR``, and each builds the same rulesets from it once.
"""

from __future__ import annotations

import logging
import sys
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from audit.errors import AuditError

if TYPE_CHECKING:
    from audit.logs.reader import Staging

CONNECT_TIMEOUT_S = 10
T = TypeVar("T")


def run_on_cluster(
    address: str,
    audit: Callable[[Staging, int], T],
    stage: Staging,
    on_done: Callable[[T], None],
) -> None:
    """Run ``audit(stage, bucket)`` for every bucket on the cluster at ``address``; pass
    each result to ``on_done`` as it arrives. Raises ``AuditError`` (one line) when the
    extra is not installed, no scheduler answers, or a worker fails."""
    try:
        import distributed
    except ImportError as error:
        raise AuditError(
            "--scheduler needs the dask extra: pip install 'rummy-audit[dask]'",
            slug="scheduler",
        ) from error
    _check_address(address)
    # distributed logs a lost scheduler's reconnection attempts on stderr before the run's
    # own line says so: the run says it once.
    logging.getLogger("distributed.client").setLevel(logging.CRITICAL)
    try:
        connect: Any = distributed.Client  # untyped
        client: Any = connect(address, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise AuditError(
            f"no Dask scheduler answered at {address}: {_first_line(error)}", slug="scheduler"
        ) from error
    if not client.scheduler_info().get("workers"):
        print(f"rummy-audit: waiting for a worker to join the Dask cluster at {address}",
              file=sys.stderr, flush=True)  # fmt: skip
    run = uuid.uuid4().hex[:12]  # names the tasks on the dashboard; never in an output
    keys = {f"rummy-audit-bucket-{bucket}-{run}": bucket for bucket in range(stage.buckets)}
    with client:
        # The staging reaches each worker once, as the result of one task that the others
        # depend on (which the scheduler can run again if the workers holding it are
        # lost). Given to every task as a value, it was unpickled and held once per task:
        # a million hands' staging is about 1 MB, and grows with the night's files; its
        # 342 tasks took 2 workers from 136 to 1,015 MiB, against 296 MiB sent once.
        shared = client.submit(_as_is, stage, key=f"rummy-audit-staging-{run}", pure=False)
        futures = client.map(
            audit, [shared] * len(keys), list(keys.values()), key=list(keys), pure=False
        )
        completing: Any = distributed.as_completed  # untyped
        arriving = completing(futures, loop=client.loop)
        del futures  # each result is let go once written (release below)
        for future in arriving:
            try:
                result = future.result()
            except Exception as error:  # a worker's failure, re-raised here by Dask
                raise AuditError(
                    f"a Dask worker failed on bucket {keys[future.key]}: "
                    f"{type(error).__name__}: "
                    f"{_first_line(error)}",
                    slug="scheduler",
                ) from error
            on_done(result)
            future.release()


def _check_address(address: str) -> None:
    """Refuse an address no scheduler could have before a client is made: a client made
    for ``notanaddress`` failed, then timed out in its finaliser 20 s later with a
    traceback after the run's one line (a blind tester)."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        protocol, location = parse_address(address)
        if protocol in ("tcp", "tls", "ws", "wss"):
            parse_host_port(location)
    except ValueError as error:
        raise AuditError(
            f"--scheduler {address} is not a Dask scheduler's address ({_first_line(error)}): "
            "give it as tcp://HOST:PORT",
            slug="scheduler",
        ) from None


def _as_is(value: T) -> T:
    return value


def _first_line(error: BaseException) -> str:
    return (str(error).splitlines() or [type(error).__name__])[0]
