"""Each game's words for the interfaces (result sentences, roles, input forms), one module a
game, registered with :mod:`kirifuda.ui.results` when first used."""
