"""The run-time helpers of compiled rules, one module per family of built-ins.

Stage: program (the contract compile -> run). Generated code calls these by name (`_div`,
`_move`, `_tspots`, ...); `runtime.make_helpers` binds them to one program: each family's
`bind(faults)` gives its helpers, those that can fail as closures over the program's
`Faults` (which name the failing rule's span), the others plain functions of the module.
A family's signatures and docs are in `check/types.py` (BUILTINS) and `check/tiles.py`
(the checker reads them), its code generation in `compile/builtins.py` (which names the
helpers it calls): tests/test_builtins.py keeps the three in step.

    numbers   division, bounds, the size of whole numbers, max and min of a list
    lists     items, sorting, joining, subsets, ranges
    boards    cells by column and row, movement over a board
    zones     the top of a zone, moving, shuffling
    players   winners, teams
    work      the work budget, what the rules say, examples' expectations
    tiles     territories of tiles (rulesdsl/boards/territory.py is their geometry)
"""
