"""The flock's core: its store, config, species table, the shared state of a step, events,
the spatial grid, vision and the small maths shared by the kernels.

Nothing here imports a stage, nor the `Flock` façade and the esper bridge
(`shoal.systems.flock`); every part imports from here.
"""
