"""The flock's core: its store, config, species table, the shared state of a step, the
processor base, events, the spatial grid and small maths shared by the kernels.

Nothing here imports a stage; every stage imports from here.
"""
