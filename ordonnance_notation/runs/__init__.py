"""The run layer: how every command that reads records goes through its inputs.

Inputs are expanded once and cut into blocks of whole records
(``blocks``); a command's verb, a function of one block, is mapped over
them on this process and its workers (``workers``) or on a Dask cluster
(``cluster``), as ``pools`` chooses, results in input order, each input that cannot be used as
an ``InputError`` in its place, never given to the verb (``workers.routed``);
what a run came to is one ``Tally``, and the exit status one rule
(``tally.exit_status``).
"""
