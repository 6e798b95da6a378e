"""The ``flitcast`` command line (``app.py``), one module per command: ``run``, ``sweep``, ``reproduce``,
``listing`` (list), ``bench``, ``model``. Importing this package registers every command."""

from flitcast.cli import bench, listing, model, readings, reproduce, run, sweep  # noqa: F401 - each registers its command
from flitcast.cli.app import app, main

__all__ = ["app", "main"]
