"""The distributed recipe of docs/distributed.md, on a local cluster of two
worker processes: the same library call per record as `ordo validate`."""

from pathlib import Path

import pytest
from strategies import SAMPLES

from ordonnance_notation import parse_text, validate
from ordonnance_notation.checking.batch import check, file_tasks

distributed = pytest.importorskip(
    "dask.distributed", reason="dask[distributed] is in the test extra; install it to run this"
)
bag = pytest.importorskip("dask.bag", reason="dask is in the test extra")


@pytest.mark.slow  # starts a cluster of two worker processes
def test_a_directory_of_archives_validates_the_same_on_a_two_worker_cluster():
    paths = sorted(str(p) for p in SAMPLES.rglob("*.ord") if p.name != "encoding.ord")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    with cluster, distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        results = (
            bag.from_sequence(paths, npartitions=len(paths))
            .map(file_tasks)
            .flatten()
            .map(check)
            .compute()
        )
    by_record = {
        (r.task.source, r.task.index): (r.valid, [d.code for d in r.diagnostics])
        for r in results
        if r
    }
    expected = {
        (path, report.index): (report.valid, [d.code for d in report.diagnostics])
        for path in paths
        for report in (validate(item) for item in parse_text(Path(path).read_text("utf-8"), path))
    }
    assert by_record == expected
    assert sum(1 for valid, _ in by_record.values() if valid) == 10
