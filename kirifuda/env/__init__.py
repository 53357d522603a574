"""Research environments over every registered game (研究用の環境).

- :mod:`kirifuda.env.core`: the fixed integer action space of each game, the legal mask, the
  observation encoder derived from each game's View, and :class:`~kirifuda.env.core.GameEnv`, a
  plain stepper (reset/step) that the adapters share.  Needs numpy only.
- :mod:`kirifuda.env.pettingzoo`: PettingZoo AEC environments (``pip install 'kirifuda[pettingzoo]'``).
- :mod:`kirifuda.env.openspiel`: OpenSpiel python games (``pip install 'kirifuda[openspiel]'``),
  and kirifuda's bots as ``pyspiel.Bot`` (``KirifudaBot``).
- :mod:`kirifuda.env.bots`: kirifuda's bots playing a seat through env actions, from its views
  only (``BotPolicy`` in the PettingZoo module, ``KirifudaBot`` in the OpenSpiel one).
- :mod:`kirifuda.env.single`: one seat against kirifuda's bots, a Gymnasium env.
- :mod:`kirifuda.env.vector`: many single-agent envs as a Gymnasium ``VectorEnv``, and the
  PettingZoo env as a ``ParallelEnv``.

The core package never imports this package; this package imports PettingZoo or OpenSpiel only in
the module of that name.  See ``docs/env.md``.
"""
