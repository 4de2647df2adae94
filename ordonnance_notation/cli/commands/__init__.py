"""The commands of ``ordo``: one module per command, named as the command
(``analyse`` answers to ``analyze`` too), and nothing else. Each has its
``NAME``, its ``SHORT`` help and its ``command``: its options, one library
call, a reporter and the exit. In the order of ``ordo --help``
(``app.COMMANDS``): validate, deal, play, match, stats, export, select,
dedup, explore, fmt, convert; replay, fix; explain, summary, analyse, view;
lsp.

What a command leans on is in ``cli/`` beside this folder, shared or not:
the options several take (``options``), the run (``running``), the inputs
(``streams``), the deck and scoring of deal, play and match (``making``);
and a command's own helpers, where its module would be too long with them:
match's options (``matching``), select's (``choosing``) and its
``--split`` (``splitting``), play at the terminal (``human``), replay's
stepper (``stepping``)."""
