"""The solver: the turn kernel, the retrograde DP that builds the value tables, the table file, and numba's compile cache."""
