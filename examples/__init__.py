"""Small games that use shoal through its public API; run one with ``python -m examples.NAME``.

Every example takes ``--headless --frames N --screenshot PATH``. arcade decides on headless
mode when it is first imported, and ``python -m examples.NAME`` imports this package before
the example, so this is the one place that can switch it on in time.
"""

import os
import sys

if "--headless" in sys.argv:
    os.environ["ARCADE_HEADLESS"] = "1"
