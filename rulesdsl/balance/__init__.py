"""Balance analysis: simulation runs stored in SQLite, figures with 95% intervals, base
against variant on common random numbers with a sequential test, plots and an HTML
report, CSV and Parquet export, and a Ray backend.

Stage: analysis (after run). Modules: games.py (one game as a record, a batch of them),
store.py (the database), running.py (backends and the progress bar), ray_backend.py,
intervals.py and sequential.py (statistics), figures.py and compare.py (what a run and a
comparison come to), study.py (a whole `simulate`), show.py (its tables and JSON),
report.py (plots and the page), export.py, cli.py (the commands).
"""
