"""Pure, typed puzzle solvers for coin-puzzles (no web, no I/O)."""
