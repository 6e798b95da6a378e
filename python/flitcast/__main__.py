"""``python -m flitcast`` runs the command line."""

from flitcast.cli import main

main()
