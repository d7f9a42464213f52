"""The shoal sample game (for now a flock viewer): ``python -m shoal.game``."""
