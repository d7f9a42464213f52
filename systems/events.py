"""The esper events shoal dispatches, so that a game can keep score, play sounds, spawn effects.

Subscribe with `esper.set_handler(BOID_EATEN, handler)`. esper keeps only weak references to
handlers (bound methods live as long as their object) and its events are shared by all
worlds.

| event | handler arguments |
|---|---|
| `BOIDS_SPAWNED` | entities (numpy int array) |
| `BOID_EATEN` | boid entity, hunter entity (a boid or a `Predator` entity), x, y |
| `FOOD_BITTEN` | food entity, boid entity, bites left |
| `FOOD_EATEN` | food entity (deleted at the next esper.process) |
| `LEADER_LOST` | the leader entity that was deleted or lost its `Leader` component |
"""

BOIDS_SPAWNED = "shoal_boids_spawned"
BOID_EATEN = "shoal_boid_eaten"
FOOD_BITTEN = "shoal_food_bitten"
FOOD_EATEN = "shoal_food_eaten"
LEADER_LOST = "shoal_leader_lost"
