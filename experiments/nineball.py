"""Nineball Solitaire solved exactly (thoughtful) under both kitchen rules.  Writes
results/nineball/thoughtful.{csv,md}."""

from common import arguments, run_all

NOTES = """
`thoughtful` is the exact optimum with every card known. `kitchen_per_group=1` is the reading
under which the text's worked example is consistent (at most one kitchen card per group).
"""

if __name__ == "__main__":
    args = arguments(1_000_000, __doc__)
    runs = [("nineball", "thoughtful", variant)
            for variant in ({}, {"kitchen_per_group": 1})]
    run_all(runs, args, "nineball/thoughtful", "Nineball Solitaire: exact (thoughtful) results",
            NOTES)
