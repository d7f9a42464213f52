"""Stage 4, obstacles: look-ahead avoidance of obstacle shapes, and navigation round them.

- `system`: the processor (re-aims chases and flights, then avoidance);
- `field`: the obstacles compiled for the kernels, and the queries on them;
- `shape_kernel`: the geometry of one shape; `query_kernel`: every obstacle near a point or
  a path (inside, shallowest, first hit); `avoid_kernel`: the compiled avoidance;
- `free_points`: points just outside every obstacle (the collision stage's last resort);
- `navigation`: the `Navigator` of a flock: flow fields towards targets, flee maps;
- `nav_grid`: the walkable raster and how one field is built; `flow_kernel`: its kernels
  (fast marching, visibility, descent); `way_kernel`: reading a field;
- `goals`: the chase and flee terms of the earlier stages turned along the way round;
- `from_scene`: obstacles from a host's sprites or Tiled objects, in one call.
"""
