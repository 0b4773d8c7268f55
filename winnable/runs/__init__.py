"""Runs: many seeded deals of one game solved in parallel, stored in Parquet, resumable, read
back for reports.  One module per job, lowest first:

* ``spec``: what a run is (``RunSpec``: game, solver, rules, options, engine version,
  numbering) and where its files are (``run_file``, ``parts_dir``, ...); ``BatchError``.
* ``progress``: what a run tells the user (one-line warnings, the progress bar).
* ``store``: the files of a run being built: rows as Parquet with the run's identity, atomic
  writes, part files, the compatibility checks and the merge of the parts.
* ``read``: runs read back for reports (``read_runs``, ``read_run_file``, ``load_rows``).
* ``chunk``: one chunk of seeds solved, what a worker does (``solve_seeds_table``).
* ``pool``: the local worker processes (and why they are not a library's pool).
* ``cluster``: the same tasks on a Dask distributed cluster.
* ``batch``: ``solve_batch`` and ``solve_run`` on top, and ``solve_chunks``, which a batch and
  an escalation share.
* ``resolve``: ``resolve_file``, the unknown rows of a stored run solved again.
* ``sweep``: ``sweep``, one batch per combination of rule flags, compared.
* ``summary``: what ``winnable summary`` prints for run files (and ``solve-batch --json``).

Stopping (Ctrl-C, SIGTERM, SIGHUP) is ``winnable.stopping``'s.
"""
