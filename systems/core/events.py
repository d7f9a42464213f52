"""The esper events shoal dispatches, so that a game can keep score, play sounds, spawn effects.

Subscribe with `flock.set_handler(BOID_EATEN, handler)` (or `esper.set_handler` while the
flock's world is current: esper 3.9 keeps handlers per world, and shoal dispatches every
event in the flock's world). esper keeps only weak references to handlers: a bound method
lives as long as its object; a lambda or local function is dropped at once. Events are
dispatched after the stage has finished changing the flock, so a handler may spawn and
despawn boids.

| event | handler arguments |
|---|---|
| `BOIDS_SPAWNED` | entities (numpy int array) |
| `BOID_EATEN` | boid entity, hunter entity (a boid or a `Predator` entity), x, y |
| `FOOD_BITTEN` | food entity, boid entity, bites left |
| `FOOD_EATEN` | food entity (deleted at the next esper.process) |
| `LEADER_LOST` | the leader entity that was deleted or lost its `Leader` component |
| `PREY_CAUGHT` | prey entity, hunter entity (a boid), x, y |
"""

BOIDS_SPAWNED = "shoal_boids_spawned"
"""Fired by `Flock.spawn` / `scatter`; handler(entities: numpy int array)."""
BOID_EATEN = "shoal_boid_eaten"
"""A boid was caught; handler(boid, hunter, x, y). The boid is already removed."""
FOOD_BITTEN = "shoal_food_bitten"
"""A boid bit food; handler(food, boid, bites_left)."""
FOOD_EATEN = "shoal_food_eaten"
"""The last bite; handler(food). The entity is deleted at the next esper.process."""
LEADER_LOST = "shoal_leader_lost"
"""A leader entity was deleted or lost its Leader; handler(leader)."""

PREY_CAUGHT = "shoal_prey_caught"
"""A hunting boid reached a `Prey` entity; handler(prey, hunter, x, y). Nothing is deleted."""

# Every event above: `Flock.set_handler` refuses other names (a typo would never fire).
EVENTS = (BOIDS_SPAWNED, BOID_EATEN, FOOD_BITTEN, FOOD_EATEN, LEADER_LOST, PREY_CAUGHT)
