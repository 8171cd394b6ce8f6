"""Balance analysis: simulation runs stored in SQLite, figures with 95% intervals, base
against variant on common random numbers with a sequential test, plots and an HTML
report, CSV and Parquet export, and a Ray backend.

Stage: analysis (after run). Modules: games.py (one game as a record, a batch of them),
store.py (the database), running.py (backends and the progress bar), workers.py (the
worker processes), rows.py (a batch's rows), ray_backend.py,
intervals.py and sequential.py (statistics), figures.py and compare.py (what a run and a
comparison come to), study.py (a whole `simulate`), show.py (its tables and JSON),
report.py (plots and the page), export.py, cli.py (the commands); and what says how far to
trust a study: bots.py (the bots' strength, calibrated or given), fired.py (what fired in
each game, by seat), changes.py (how play changed between base and variant), trust.py
(Holm, detectable differences, pairing's gain), reading.py (all of it from the database),
show_reading.py and report_reading.py (its tables and page), statline.py (`--stat`).
"""
