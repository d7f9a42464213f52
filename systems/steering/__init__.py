"""Stage 2, steering: separation, alignment and cohesion, and avoid / flee / chase between
species (`system`: the processor; `kernel`: the compiled rules; `explain`: one boid's terms,
for the debug overlay).
"""
