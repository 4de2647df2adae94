"""Which pool a run maps its blocks on: this machine's processes
(``workers.Workers``), or the workers of a Dask cluster
(``cluster.ClusterWorkers``, built on the first's ``routed``). The choice
is made here, above both, so that neither knows the other's choice."""

from __future__ import annotations

from .cluster import ClusterWorkers
from .workers import Pool, Workers


def workers_for(jobs: int, scheduler: str | None = None) -> Pool:
    """``Workers(jobs)``, or the workers of the Dask scheduler at ``scheduler``
    (Dask is imported only when they connect)."""
    if scheduler is None:
        return Workers(jobs)
    return ClusterWorkers(scheduler)
