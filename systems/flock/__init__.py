"""The flock as a game meets it: the `Flock` façade (`flock.py`, its argument checks in
`flock_arguments.py`, where `scatter` puts boids in `placing.py`, the host's other calls in
`embedding.py`, fixed steps on the frame clock in `clock.py`), and the bridge to esper: the
one place that reads esper's internals (`ecs.py`), which entities are boids (`members.py`),
a host's sprites tied to roles (`ties.py`), leaders, food, ... gathered into arrays
(`agents.py`) and the stages' base (`processor.py`).

Apart from `shoal.systems.core` (the store, the step, the shared kernels), which imports
nothing of it; every stage may import it.
"""
