"""``python -m takujo``: the same as the ``takujo`` command."""
from .cli import main

main()
