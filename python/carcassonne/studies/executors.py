"""Studies beyond one machine: executors for Dask distributed and Ray.

Any ``concurrent.futures.Executor`` can run a study (``simulate(..., executor=ex)``,
``compare(..., executor=ex)``): the games are split into chunks by game index, each chunk is
one task, and game g's seed depends only on the master seed and g, so the results are
identical to a single-machine run. This module only connects to the clusters:

>>> with dask_executor("local", workers=2) as (ex, slots):       # doctest: +SKIP
...     results = simulate(Rules(), games=100_000, executor=ex, threads=1)

Each task plays its chunk with ``threads`` native threads; on a cluster give every task one
thread (``threads=1``) and let the cluster run one task per core.
"""

from __future__ import annotations

import logging
import os
import signal
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from contextlib import contextmanager
from typing import Any


class SchedulerError(RuntimeError):
    """The cluster cannot be reached or used (one clear line)."""


@contextmanager
def dask_executor(
    address: str,
    *,
    timeout: float = 5.0,
    workers: int | None = None,
    processes: bool = True,
) -> Iterator[tuple[Executor, int]]:
    """Connect to a Dask scheduler at ``address`` (``tcp://host:8786``), or start a
    ``LocalCluster`` for ``address="local"`` (``workers`` worker processes of one thread
    each; default: one per core). Yields ``(executor, slots)``, slots being the cluster's
    total threads (how many chunks run at once). Fails within ``timeout`` seconds with
    :class:`SchedulerError` when the scheduler cannot be reached."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise SchedulerError(
            "running on Dask needs the dask extra: pip install 'carcassonne[dask]'"
        ) from None
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)):
        raise SchedulerError(f"workers must be a whole number, not {workers!r}")
    if workers is not None and workers < 1:
        raise SchedulerError(f"workers must be at least 1, got {workers}")
    n_workers = workers or os.cpu_count() or 1
    cluster = None
    try:
        if address == "local":
            # The worker processes ignore Ctrl-C (they inherit an ignored SIGINT): the terminal
            # sends it to them too, and this process alone decides how to stop them.
            with _sigint_ignored():
                cluster = LocalCluster(
                    n_workers=n_workers,
                    threads_per_worker=1,
                    processes=processes,
                    dashboard_address=None,
                    silence_logs=logging.CRITICAL,  # no noise from chunks cancelled on Ctrl-C
                )
            client = Client(cluster, timeout=f"{timeout}s")
        else:
            client = Client(address, timeout=f"{timeout}s")
    except Exception as e:  # OSError, TimeoutError, ValueError for a malformed address, ...
        if cluster is not None:
            cluster.close()
        what = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise SchedulerError(
            f"cannot reach the Dask scheduler at {address!r} within {timeout:g} s ({what})"
        ) from None
    try:
        slots = max(1, sum(client.nthreads().values()))
        yield client.get_executor(pure=False), slots
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored meanwhile (in the main thread; elsewhere, nothing changes)."""
    try:
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


class RayExecutor(Executor):
    """Runs tasks as Ray remote functions. Connects to ``address`` (``"auto"``, a
    ``ray://`` address) or starts Ray locally (``address=None``) unless Ray is already
    initialised; :meth:`shutdown` stops what it started."""

    def __init__(self, address: str | None = None, **init: Any) -> None:
        try:
            import ray
        except ImportError:
            raise SchedulerError(
                "running on Ray needs ray: pip install 'carcassonne[ray]'"
            ) from None
        self._ray = ray
        self._owned = False
        if not ray.is_initialized():
            try:
                ray.init(address=address, **{"log_to_driver": False, **init})
            except Exception as e:
                raise SchedulerError(f"cannot start or reach Ray at {address!r}: {e}") from None
            self._owned = True
        self._remote: dict[Callable[..., Any], Any] = {}

    @property
    def _max_workers(self) -> int:
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = self._ray.remote(fn)
        return remote.remote(*args, **kwargs).future()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if self._owned:
            self._ray.shutdown()
            self._owned = False
