"""Stage 5b, collision: the hard guarantee that no boid ends a step inside an obstacle
(`system`: the processor; `kernel`: the compiled push-out).
"""
