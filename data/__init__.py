"""The shipped optimal-value tables (HDF5), one per rule set; see yahtzee_solver.table."""
