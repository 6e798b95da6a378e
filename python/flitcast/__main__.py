"""``python -m flitcast`` runs the command line."""

from flitcast.cli import main

if __name__ == "__main__":  # Dask's worker processes import this module again; they must not run the CLI
    main()
