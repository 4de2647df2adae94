"""Validate archives on a Dask cluster, with the library call per record that
`ordo validate` makes (docs/distributed.md).

    python examples/validate_on_dask.py archives/                  # a local cluster of 2 workers
    python examples/validate_on_dask.py --scheduler tcp://host:8786 archives/

Prints each record's diagnostics (one line each) and verdict, as the first
line of what `ordo validate` prints for them, then a total; exits as it does
(0 all valid, 1 some record invalid, 2 some path cannot be read).

Workers read the files, so they must see the same paths (a shared file
system). A file that is not UTF-8 is reported as a whole here, where `ordo
validate` also checks the records before the bad byte.
"""

from __future__ import annotations

import argparse
import sys

import dask.bag as db
from dask.distributed import Client, LocalCluster

from ordonnance_notation.checking.verdicts import Checked
from ordonnance_notation.diagnostics import InputError
from ordonnance_notation.files.sources import expand, read_source
from ordonnance_notation.runs.blocks import Block
from ordonnance_notation.runs.tally import Tally
from ordonnance_notation.runs.validation import validate_block


def check_file(path: str | InputError) -> list[Checked | InputError]:
    """Every record of one file, checked (on a worker); or why the file cannot be used."""
    try:
        if isinstance(path, InputError):  # found so by expand: not a file to read
            raise path
        source = read_source(path)  # raises for a file not UTF-8
    except InputError as problem:
        return [problem]
    _records, checked = validate_block(Block(0, source.name, 1, source.text))  # the whole file
    return list(checked)


def check_files(client: Client, paths: list[str]) -> list[Checked | InputError]:
    """Every record of ``paths`` (directories: every *.ord below), in order."""
    inputs = list(expand(paths))
    files = db.from_sequence(inputs, npartitions=len(inputs))  # a partition per file
    results: list[Checked | InputError] = files.map(check_file).flatten().compute(scheduler=client)
    return results


def report(results: list[Checked | InputError]) -> Tally:
    tally = Tally()
    for item in results:
        tally.add(item)
        found = [item.diagnostic] if isinstance(item, InputError) else item.diagnostics
        for d in found:
            print(f"{d.location}: {d.severity.value}[{d.code}]: {d.message}")
        if isinstance(item, Checked):
            print(f"{item.source} record {item.index}{item.players}: {item.verdict}")
    print(
        f"{tally.records} records: {tally.records - tally.invalid} valid, {tally.invalid} invalid"
    )
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files, or directories")
    parser.add_argument(
        "--scheduler", metavar="ADDRESS", help="tcp://host:8786; else 2 local workers"
    )
    args = parser.parse_args(argv)
    if args.scheduler:
        with Client(args.scheduler) as client:
            tally = report(check_files(client, args.paths))
    else:
        # worker processes are started anew (spawned) and import this file: hence the
        # `if __name__ == "__main__":` below, without which each would start a cluster too.
        # The dashboard on a free port: 8787 may be another cluster's.
        with (
            LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
            ) as cluster,
            Client(cluster) as client,
        ):
            tally = report(check_files(client, args.paths))
    return 2 if tally.unreadable else 0 if tally.all_valid else 1


if __name__ == "__main__":
    sys.exit(main())
