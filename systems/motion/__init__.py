"""Stage 5, motion: limits of turn and speed, integration, the world boundary
(`system`: the processor; `kernel`: the compiled step).
"""
