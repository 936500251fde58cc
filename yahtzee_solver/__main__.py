"""``python -m yahtzee_solver`` runs the ``yahtzee-solve`` command line."""

from .cli import main

if __name__ == "__main__":
    main(prog_name="yahtzee-solve")
