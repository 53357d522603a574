"""Imports every game's heuristic bot so that each registers itself."""

from . import meitora_heuristic  # noqa: F401
from . import napoleon_heuristic  # noqa: F401
from . import unsun_heuristic  # noqa: F401
from . import kakeya_heuristic  # noqa: F401
