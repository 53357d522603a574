"""User interfaces: rendering, the terminal game, the replay account."""
