"""Checking on a Dask cluster: ``ClusterWorkers`` maps a function over blocks
on the workers of a Dask scheduler, results in order, as ``workers.Workers``
does on this machine's processes, so that ``ordo validate --scheduler`` runs
the same block pipeline (``blocks.input_blocks``, ``validation.validate_block``) as ``--jobs``.

A block carries the text of its records, so the workers never open the
inputs: they need the same version of ordonnance_notation installed, not the
files. What comes back is a block's verdicts and diagnostics, never games.

Dask is imported only here, and only when a cluster is used; every way the
cluster cannot be used (Dask not installed, no scheduler at the address, no
worker, a cluster that fails under way) is a ``ClusterError`` (E009), never a
traceback. An exception that the mapped function itself raises on a worker
is raised here as it is.
"""

from __future__ import annotations

import socket
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import CancelledError
from typing import TYPE_CHECKING, TypeVar

from ..diagnostics import Diagnostic, InputError, OrdoError
from .workers import routed

if TYPE_CHECKING:
    from distributed import Client, Future

CONNECT_TIMEOUT = 5.0  # seconds to reach the scheduler, and then to find a worker
INSTALL = "pip install 'ordonnance-notation[dask]'"

DISTRIBUTION = "ordonnance-notation"

B = TypeVar("B")
R = TypeVar("R")


class ClusterError(OrdoError):
    """A Dask cluster that cannot be used (E009): Dask missing here, no
    scheduler at the address or no worker under it, or a cluster that failed
    before the work was done."""


HANDSHAKE_MOST = 1 << 20
"""Bytes of a Dask scheduler's first message, at most (its handshake: about 60)."""


def _not_a_scheduler(host: str, port: int, timeout: float) -> str | None:
    """What shows that the peer at ``host:port`` is no Dask scheduler, else
    None (none answers at all: ``Client`` says so). A scheduler speaks
    first: its handshake, after the length of it in 8 bytes, little-endian;
    a silent peer, or one that says something else, would leave Dask
    waiting for ever or asking for the memory its first bytes name."""
    try:
        with socket.create_connection((host, port), timeout=timeout) as peer:
            peer.settimeout(timeout)
            head = b""
            while len(head) < 8:
                more = peer.recv(8 - len(head))
                if not more:
                    return "it closed the connection without a word"
                head += more
    except TimeoutError:
        return f"it said nothing within {timeout:g} s"
    except OSError:
        return None
    if not 0 < int.from_bytes(head, "little") <= HANDSHAKE_MOST:
        return f"it began with bytes {head.hex()}, not a Dask handshake"
    return None


def _cluster_error(place: str, message: str, help: str) -> ClusterError:
    return ClusterError(Diagnostic("E009", message, place, help=help))


class ClusterWorkers:
    """The workers of the Dask scheduler at ``address`` (``tcp://host:8786``),
    to map a function over blocks on, in order, as ``workers.Workers`` does.
    The client connects with the ``with`` (raising ``ClusterError`` if Dask is
    not installed, or when no scheduler answers or no worker joins within
    ``timeout`` seconds) and leaves at its end. Only a few blocks per worker
    thread are under way at a time, so memory stays flat here as on the
    workers; every block goes to the cluster, the first one too."""

    def __init__(self, address: str, timeout: float | None = None) -> None:
        self.address = address
        self.timeout = CONNECT_TIMEOUT if timeout is None else timeout
        self._client: Client | None = None
        self.threads = 0  # worker threads when connected: a block under way each, and some more

    def __enter__(self) -> ClusterWorkers:
        self._client = self._connect()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def _connect(self) -> Client:
        try:
            from distributed import Client
            from distributed.comm.addressing import parse_address, parse_host_port
        except ImportError:
            raise _cluster_error(
                "ordo",
                f"checking on a Dask cluster needs Dask, which is not installed: {INSTALL}",
                "install it here and on every worker; without a cluster, "
                "--jobs N checks on this machine's cores",
            ) from None
        where = self.address
        waited = f"{self.timeout:g} s"
        try:
            scheme, location = parse_address(where)
            if scheme in ("tcp", "tls"):
                host, port = parse_host_port(location)  # Client would leave a thread behind
        except ValueError as error:
            raise _cluster_error(
                where,
                f"not the address of a Dask scheduler: {error}",
                "a scheduler's address is tcp://HOST:PORT (dask scheduler prints it; "
                "its port is 8786 unless told otherwise)",
            ) from None
        wrong = _not_a_scheduler(host, port, self.timeout) if scheme == "tcp" else None
        if wrong is not None:
            raise _cluster_error(
                where,
                f"what answers at this address is no Dask scheduler: {wrong}",
                "check the address and its port (dask scheduler prints its address; its "
                "port is 8786 unless told otherwise)",
            )
        try:
            client = Client(where, timeout=self.timeout, set_as_default=False)
        except Exception as error:  # a peer that is no scheduler can make Dask raise anything
            cause = "" if str(error).startswith("Timed out") else f": {error}"
            raise _cluster_error(
                where,
                f"no Dask scheduler answers at this address within {waited}{cause}",
                "check the address and that the scheduler runs (dask scheduler prints its "
                "address); without a cluster, --jobs N checks on this machine's cores",
            ) from None
        try:
            client.wait_for_workers(1, timeout=self.timeout)
            self.threads = sum(client.nthreads().values())
        except (OSError, TimeoutError):
            client.close()
            raise _cluster_error(
                where,
                f"the Dask scheduler has no worker: none joined within {waited}",
                f"start workers on it (dask worker {where}), with ordonnance_notation "
                "installed in their environment",
            ) from None
        self._check_workers(client)
        return client

    def _check_workers(self, client: Client) -> None:
        """Every worker has this version of ordonnance_notation: a worker that
        cannot load what it is sent would leave the work waiting for ever."""
        from importlib.metadata import version

        ours = version(DISTRIBUTION)
        try:
            # a function of the standard library, which any worker can load
            theirs = client.run(version, DISTRIBUTION, on_error="return")
        except (OSError, TimeoutError) as error:
            client.close()
            raise _cluster_error(
                self.address,
                f"the Dask workers cannot be asked what they run: {error}",
                "check that the workers run and can be reached from here",
            ) from None
        wrong = sorted(
            (worker, "lacks it" if isinstance(found, Exception) else f"has {found}")
            for worker, found in theirs.items()
            if found != ours
        )
        if wrong:
            client.close()
            worker, found = wrong[0]
            more = f" (and {len(wrong) - 1} more workers)" if len(wrong) > 1 else ""
            raise _cluster_error(
                self.address,
                f"ordonnance_notation here is {ours}; the Dask worker {worker} {found}{more}",
                f"install ordonnance-notation=={ours} where the workers run, and restart them",
            )

    def map(
        self, function: Callable[[B], R], work: Iterable[B | InputError]
    ) -> Iterator[R | InputError]:
        """``function`` over ``work`` on the cluster (``workers.routed``), each
        result in order as soon as it is done; a few blocks per worker thread
        are under way.
        ``function`` is sent by name (a module's top-level function or a
        ``functools.partial`` of one) and what it returns is sent back, so it
        should be small. Raises ``ClusterError`` when the cluster fails under way."""
        return routed(self._map, function, work)

    def _map(self, function: Callable[[B], R], work: Iterable[B]) -> Iterator[R]:
        client = self._client
        if client is None:
            raise RuntimeError("ClusterWorkers.map outside its with block")
        window = 4 * max(self.threads, 1)
        under_way: deque[Future[R]] = deque()
        finished = False
        try:
            for block in work:
                # pure=False: a key of its own, without hashing the block's text
                under_way.append(client.submit(function, block, pure=False))
                if len(under_way) >= window:
                    yield self._result(under_way.popleft())
            while under_way:
                yield self._result(under_way.popleft())
            finished = True
        finally:
            if not finished and under_way:  # left before the end: what is under way is not wanted
                client.cancel(list(under_way))

    def _result(self, future: Future[R]) -> R:
        from distributed import KilledWorker
        from distributed.comm.core import CommClosedError

        try:
            return future.result()
        except (KilledWorker, CancelledError, CommClosedError) as error:
            cause = (
                "workers died while checking the same block"
                if isinstance(error, KilledWorker)
                else "the scheduler was lost, or cancelled the work"
            )
            raise _cluster_error(
                self.address,
                f"the Dask cluster failed before the work was done ({cause}): "
                "the output is incomplete",
                "run again; check that the workers have memory enough and the same "
                "version of ordonnance_notation; --jobs N checks on this machine alone",
            ) from None
        except ImportError as error:  # the worker cannot load the function it was sent
            raise _cluster_error(
                self.address,
                f"a Dask worker cannot import what it was sent: {error}",
                "install the same version of ordonnance_notation on every worker",
            ) from None
