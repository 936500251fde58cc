"""The package version: a leaf module (no imports), read by the package root, by
modules that record it (``table.py`` writes it into every table file) and by
``pyproject.toml`` (``[tool.setuptools.dynamic]``)."""

__version__ = "0.2.0"
