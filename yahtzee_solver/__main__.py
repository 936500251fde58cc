"""``python -m yahtzee_solver`` runs the ``yahtzee-solve`` command line."""

from .cli import run

if __name__ == "__main__":
    run(prog_name="yahtzee-solve")
