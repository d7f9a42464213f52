"""Stage 6, lifecycle: catches, bites, eaten food, moving food, events
(`system`: the processor; `kernel`: which hunters catch their prey).
"""
