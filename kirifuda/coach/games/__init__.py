"""Each game's part of the coach (:class:`~kirifuda.coach.positions.CoachPart`), one module a
game, named by the game's declaration (``GameInfo.parts["coach"]``) and loaded on first use."""
