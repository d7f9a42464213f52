"""Stage 4, obstacles: look-ahead avoidance of obstacle shapes (`system`: the processor;
`field`: the obstacles compiled for the kernels and the queries on them; `shape_kernel`: the
geometry of one shape; `avoid_kernel`: the compiled steering).
"""
