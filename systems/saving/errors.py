"""SaveError: a saved flock that cannot be restored (a user's file, not a bug)."""


class SaveError(ValueError):
    """A snapshot or save file that shoal refuses: its message is one line naming the file
    (or "snapshot") and what is wrong; the flock it was to restore into is unchanged."""
