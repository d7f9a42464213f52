"""Tiled maps (.tmj) of the fish tank, shipped as package data.

Load one with `shoal.game.level.load_level("reef")`; `shoal.game.level.level_names()` lists
them in play order. The map format (layers, classes, properties) is described in
`shoal.game.level`. Open a map in Tiled 1.8 or later to edit it; save it as JSON.

- ``reef.tmj`` (1, Coral Reef): rocks and sea grass, no shark.
- ``kelp.tmj`` (2, Kelp Forest): kelp walls and rock overhangs make a zigzag, one shark.
- ``caves.tmj`` (3, Narrow Caves): tilted pillars and boulders, two sharks, 3 minutes.
- ``open_water.tmj`` (4, Open Water): a torus with no walls, a current, three sharks.
"""
