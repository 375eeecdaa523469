"""The ``learned`` bot's weights, one ``<game>.npz`` per game (its default configuration)."""
