"""Build hook: a wheel carries its numba kernels compiled for the machine that builds it.

``pip install .`` builds the wheel on the user's machine, so the machine code
compiled here (``yahtzee_solver.solver.jit._main(['--build-cache'])``: every signature
of ``yahtzee_solver/solver/jit_signatures.txt``, written to the package's
``_jitcache`` folder) is valid where it is installed, and the first command
after the install loads it instead of compiling.  A cache built for another
CPU, numba, numpy or source is ignored at run time (numba compiles as usual).

Skipped for an editable install (``pip install -e``: numba's own cache in the
source tree serves the developer) and when ``YAHTZEE_SOLVER_PRECOMPILE=0``;
``YAHTZEE_SOLVER_SIGNATURES=FILE`` compiles another list (the tests use a short one).
A failure to compile never fails the build: it is reported, and the package
then compiles on first use.
"""

import os
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithKernels(build_py):
    """``build_py``, then the compiled kernels into the built package."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False) or os.environ.get("YAHTZEE_SOLVER_PRECOMPILE", "1") == "0":
            return
        lib = Path(self.build_lib).resolve()
        if not (lib / "yahtzee_solver" / "solver" / "jit.py").is_file():
            return
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        env["PYTHONPATH"] = os.pathsep.join([str(lib), *filter(None, [os.environ.get("PYTHONPATH")])])
        print("compiling the solver's numba kernels into the wheel (about a minute, once per install)",
              file=sys.stderr, flush=True)
        args = ["--build-cache"]
        if os.environ.get("YAHTZEE_SOLVER_SIGNATURES"):
            args += ["--signatures", os.environ["YAHTZEE_SOLVER_SIGNATURES"]]
        # called, not run with -m: the package's own import already loads the jit module
        cmd = [sys.executable, "-c", f"from yahtzee_solver.solver.jit import _main; raise SystemExit(_main({args!r}))"]
        r = subprocess.run(cmd, cwd=lib, env=env)
        if r.returncode != 0:
            print("warning: compiling the kernels failed; they will compile on first use", file=sys.stderr)


setup(cmdclass={"build_py": BuildPyWithKernels})
