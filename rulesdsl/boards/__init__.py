"""Board geometry: grids, lattices, rings and tile territories; cells, their names,
neighbours and lines.

Stage: foundation (read by the checker, the code generator and the run side alike).
"""
