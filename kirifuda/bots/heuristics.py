"""Imports every registered game's bot modules (``GameInfo.bot_modules``) so that each
registers its bots."""

from .base import load_game_bots

load_game_bots()
