"""Stage 1, neighbours: sync the store with the esper world, sort boids into the grid and
list who each boid sees (`system`: the processor; `kernel`: the compiled search).
"""
