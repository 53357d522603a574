"""kirifuda (切り札): Japan's regional trick-taking card games.

>>> from kirifuda import find_game, parse_card
>>> find_game("meitora").name_ja, parse_card("10s")
('明専トランプ', Card('TS'))
"""

from .cards import CARDS, JOKER, Card, Suit, format_card, parse_card
from .errors import DealError, IllegalActionError, InvalidActionError, KirifudaError, OptionError, RecordError
from .games import GAMES, find_game

__version__ = "0.1.0"

__all__ = [
    "Card",
    "Suit",
    "CARDS",
    "JOKER",
    "parse_card",
    "format_card",
    "GAMES",
    "find_game",
    "KirifudaError",
    "InvalidActionError",
    "IllegalActionError",
    "OptionError",
    "RecordError",
    "DealError",
    "__version__",
]
