"""How to search: solvers and players for each game."""
