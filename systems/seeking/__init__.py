"""Stage 3, seeking: leaders, food, attractors, predator entities and wander
(`system`: the processor; `kernel`: the compiled rules).
"""
