"""Sphinx configuration of the yahtzee_solver documentation.

Build: ``sphinx-build -W --keep-going -b html docs docs/_build/html`` (the
``docs`` extra installs Sphinx, MyST and the theme).  The narrative pages are
Markdown (MyST); the API reference is generated from the numpydoc docstrings
(autodoc with napoleon's numpy style).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # document the checkout, also when it is not installed

from yahtzee_solver import __version__  # noqa: E402

project = "yahtzee_solver"
author = "yahtzee_solver developers"
copyright = "2026, yahtzee_solver developers"  # noqa: A001 - Sphinx's name
version = release = __version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "myst_parser",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"

#: The per-layer module pages (api/modules.rst) document the modules by their
#: paths in the layered package (yahtzee_solver.solver.kernels, ...).  "auto":
#: built when that layout is there (the yahtzee_solver.solver subpackage
#: exists), left out before; True or False forces it.
LAYER_PAGES: bool | str = "auto"
if LAYER_PAGES == "auto":
    LAYER_PAGES = importlib.util.find_spec("yahtzee_solver.solver") is not None

exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
if not LAYER_PAGES:
    exclude_patterns.append("api/modules.rst")

# numpydoc docstrings, read by napoleon (part of Sphinx: no extra package)
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_ivar = True  # Attributes as fields: no second entry beside a dataclass field
napoleon_use_rtype = False
napoleon_preprocess_types = False

autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_typehints_format = "short"
autodoc_preserve_defaults = True
autosummary_generate = False
# The environment's optional dependency (the rl extra): documented from a stand-in when absent.
autodoc_mock_imports = [] if importlib.util.find_spec("gymnasium") else ["gymnasium"]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

html_theme = "furo"
html_title = f"yahtzee_solver {release}"
html_static_path: list[str] = []


# -- the command line's own help, inserted at build time ------------------------------------------
def _cli_help(command: str) -> str:
    """``yahtzee-solve COMMAND --help`` as click prints it, 80 columns wide ('' = the group)."""
    from click.testing import CliRunner

    from yahtzee_solver.cli import main

    args = [*command.split(), "--help"]
    result = CliRunner().invoke(main, args, prog_name="yahtzee-solve", terminal_width=80)
    if result.exit_code != 0:
        raise RuntimeError(f"yahtzee-solve {' '.join(args)} failed: {result.output}")
    return result.output.rstrip()


def setup(app):
    from docutils import nodes
    from sphinx.util.docutils import SphinxDirective

    class CliHelp(SphinxDirective):
        """``{cli-help} COMMAND``: the help text of one command (no argument: of the group)."""

        optional_arguments = 1
        final_argument_whitespace = True

        def run(self):
            command = self.arguments[0] if self.arguments else ""
            text = _cli_help(command)
            return [nodes.literal_block(text, text, language="text")]

    class LayerPages(SphinxDirective):
        """Its content (the toctree of api/modules.rst) only when :data:`LAYER_PAGES` is on."""

        has_content = True

        def run(self):
            if not LAYER_PAGES:
                return []
            node = nodes.container()
            self.state.nested_parse(self.content, self.content_offset, node)
            return node.children

    app.add_directive("cli-help", CliHelp)
    app.add_directive("layer-pages", LayerPages)
    return {"parallel_read_safe": True}
