"""One game, one place: every registered game declares what the rest of kirifuda reads, and no
module outside a game's own files names a game.

A game's own files are those named after it: its module (``games/<id>.py``, its C core
``games/_<id>_core.c``) and, in the layers above, its parts (``solver/<id>.py``,
``bots/search_<id>.py``, ``bots/<id>_heuristic.py``, ``ui/games/<id>.py``, ``coach/games/<id>.py``,
``scoresheets/<id>.py``), each named by the game's declaration (``bot_modules``, ``parts``).
Everything else reaches games through the registry (:mod:`kirifuda.games`)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from kirifuda.actions import PLAY_KIND, ActionKind, ActionReader
from kirifuda.errors import InvalidActionError
from kirifuda.game import ActionSpace, GameInfo
from kirifuda import games
from kirifuda.games import GAMES, missing_declarations, register_game

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "kirifuda"
BUILTIN = tuple(games.BUILTIN)
"""kirifuda's own games (a new game adds itself there, in ``games/__init__.py``: nothing here)."""
NAMES = re.compile(
    "|".join(
        sorted(
            {
                re.escape(word)
                for game_id in BUILTIN
                for word in (game_id, GAMES[game_id].name_ja, *(a for a in GAMES[game_id].aliases if not a.isascii()))
            },
            key=len,
            reverse=True,
        )
    ),
    re.IGNORECASE,
)
"""The words that name one of them: its id, its Japanese name and Japanese aliases."""

# Modules outside a game's own files that still name a game, each with exactly the words it may
# use (a new mention anywhere fails the test; the list only shrinks).
ALLOWED: dict[str, set[str]] = {
    # the registry registers kirifuda's own games by module
    "games/__init__.py": {"kakeya", "meitora", "napoleon", "unsun"},
    # the benchmarks' figures are per named game by design (the engines' and the solver's)
    "bench.py": {
        "bench_kakeya",
        "bench_meitora",
        "bench_napoleon",
        "bench_unsun",
        "kakeya",
        "meitora",
        "napoleon",
        "unsun",
    },
    "solver/bench.py": {
        "bench_kakeya",
        "bench_meitora",
        "bench_napoleon",
        "bench_unsun",
        "kakeya",
        "kakeya_heuristic",
        "kakeya_positions",
        "kakeya_rules",
        "kakeyaheuristicbot",
        "kakeyaposition",
        "kakeyastate",
        "meitora",
        "meitora_first_trick_states",
        "meitora_heuristic",
        "meitoraheuristicbot",
        "meitorastate",
        "napoleon",
        "napoleon_heuristic",
        "napoleon_nodes",
        "napoleon_states",
        "napoleonheuristicbot",
        "napoleonposition",
        "napoleonstate",
        "unsun",
        "unsun_ending_states",
        "unsun_endings",
        "unsun_heuristic",
        "unsunheuristicbot",
        "unsunoptions",
        "unsunstate",
    },
    # doctor reports and times Meitora's C play core, which only that game has
    "doctor.py": {
        "_meitora_core",
        "bench_meitora",
        "meitora",
        "明専トランプ",
        "明専トランプのエンジン",
        "明専トランプの進行コア",
    },
    # a default game argument (the load test's and the PettingZoo constructors')
    "cli.py": {"meitora"},
    "server/bench.py": {"meitora"},
    "env/pettingzoo.py": {"meitora"},
}


def game_names_in(path: Path) -> set[str]:
    """The words naming a game that ``path`` uses in code: identifiers, imports and string
    constants; docstrings and comments (documentation) may speak of games."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {
        id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        texts: list[str] = []
        if isinstance(node, ast.Name):
            texts = [node.id]
        elif isinstance(node, ast.Attribute):
            texts = [node.attr]
        elif isinstance(node, ast.alias):
            texts = [node.name, node.asname or ""]
        elif isinstance(node, ast.ImportFrom):
            texts = [node.module or ""]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            texts = [node.value]
        for text in texts:
            found.update(w.lower() for w in re.findall(r"\w+", text) if NAMES.search(w))
    return found


def own_file(rel: str) -> bool:
    """A file named after a game (in whichever layer): that game's own."""
    stem = Path(rel).stem
    return any(g in stem for g in BUILTIN)


def test_a_games_parts_are_its_own_files() -> None:
    """Every part a built-in game declares is a module named after it (so the test below reads
    no game's part as shared code), and every such module exists."""
    import importlib.util

    for game_id in BUILTIN:
        info = GAMES[game_id]
        # every game has these; "vector" (a batched env core in C) is optional
        parts = set(info.parts) - {"vector"}
        assert parts == {"words", "coach", "scoresheet"}, game_id
        for name in (*info.bot_modules, *info.parts.values()):
            assert game_id in name.rsplit(".", 1)[1], (game_id, name)
            assert importlib.util.find_spec(name) is not None, name


def test_every_registered_game_declares_what_the_rest_reads() -> None:
    for game_id, info in GAMES.items():
        assert missing_declarations(info) == [], game_id
        assert info.action_space is not None and info.action_space.families, game_id
        assert info.roles["seat"] and info.roles["unit"], game_id


def test_a_game_missing_a_declaration_is_refused() -> None:
    import dataclasses

    base = GAMES["meitora"]
    bare = GameInfo(
        id="bare",
        name_ja="裸",
        name_en="Bare",
        aliases=(),
        min_players=2,
        max_players=2,
        options_type=base.options_type,
        new_state=base.new_state,
    )
    with pytest.raises(ValueError, match="action_kinds"):
        register_game(bare)
    no_space = dataclasses.replace(bare, action_kinds=(PLAY_KIND,))
    with pytest.raises(ValueError, match="action_space"):
        register_game(no_space)
    no_roles = dataclasses.replace(
        no_space, action_space=ActionSpace(families=("play",), max_seats=2, deal_steps=30, deal_score=6.0)
    )
    with pytest.raises(ValueError, match="roles"):
        register_game(no_roles)
    # a family no kind of the game numbers (a bid, where the game only plays)
    with pytest.raises(ValueError, match=r"unknown action families \['fold', 'bid'\]"):
        dataclasses.replace(
            no_space,
            action_space=ActionSpace(families=("play", "fold", "bid"), max_seats=2, deal_steps=1, deal_score=1.0),
        )
    assert "bare" not in GAMES


def test_a_game_reads_only_its_own_actions() -> None:
    """Record actions are read through the registry, each game with the kinds it declares: an
    action of another game is refused by name, and each game's own are read back as written."""
    napoleon, kakeya, unsun = GAMES["napoleon"], GAMES["kakeya"], GAMES["unsun"]
    adjutant = napoleon.action_from_json({"adjutant": "AS"})
    assert type(adjutant).__module__ == "kirifuda.games.napoleon"
    assert adjutant.to_json() == {"adjutant": "AS"}
    with pytest.raises(
        InvalidActionError,
        match=r"'adjutant' is not a Kakeya Trump action \(its actions: play, trump, leader, chombo\)",
    ):
        kakeya.action_from_json({"adjutant": "AS"})
    with pytest.raises(InvalidActionError, match="'bid' is not an Unsun action"):
        unsun.action_from_json({"bid": "pass"})
    assert kakeya.action_from_json({"trump": "keep"}).to_json() == {"trump": "keep"}
    chombo = unsun.action_from_json({"seat": 2, "chombo": "revoke"}, 2)  # a referee's, in every game
    assert chombo.to_json() == {"chombo": "revoke"}
    # the shared vocabulary keeps its messages
    with pytest.raises(InvalidActionError, match="unknown key"):
        GAMES["meitora"].action_from_json({"play": "AS", "refused": True})
    with pytest.raises(InvalidActionError, match="a refused claim is"):
        GAMES["meitora"].action_from_json({"claim": False, "refused": True})
    assert GAMES["meitora"].action_from_json({"claim": True, "refused": True}).to_json() == {
        "claim": True,
        "refused": True,
    }


def test_no_two_kinds_of_a_game_read_one_key() -> None:
    with pytest.raises(ValueError, match="two kinds"):
        ActionReader([PLAY_KIND, ActionKind("play", PLAY_KIND.read)])


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_action_a_game_numbers_reads_back_from_its_json(game_id: str) -> None:
    """The env's families of a game's kinds and its record reader agree: every numbered action's
    JSON is read back by the game as the same action."""
    info = GAMES[game_id]
    assert info.action_space is not None
    for name in info.action_space.families:
        family = info.action_family(name)
        for action, _ in family.items(info.action_space):
            assert info.action_from_json(action.to_json(), 0) == action, (game_id, name, action)


def test_no_module_outside_a_games_own_files_names_a_game() -> None:
    offenders: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if own_file(rel):
            continue
        names = game_names_in(path)
        extra = names - ALLOWED.get(rel, set())
        if extra:
            offenders[rel] = extra
    assert not offenders, offenders


def test_the_exceptions_are_exactly_what_is_left() -> None:
    """Every word allowed above is still used where it is allowed: a mention removed is removed
    from the list too, so the list stays the exact inventory of what is left to move."""
    stale = {rel: words - game_names_in(PACKAGE / rel) for rel, words in ALLOWED.items()}
    assert not {rel: words for rel, words in stale.items() if words}


STATIC = PACKAGE / "server" / "static"

# Browser files that still name a game, each with exactly the words it may use (the list only
# shrinks): every game is drawn from the data the server sends (the registry's declarations).
STATIC_ALLOWED: dict[str, set[str]] = {
    # the table's client lists view fields that hold a seat, and score-sheet columns, by name
    # (one of them is Napoleon's role): they are to come from the game's UI descriptor
    "app.js": {"napoleon"},
}


def static_names_in(path: Path) -> set[str]:
    """The words naming a game in a browser file's code: its comments (``//``, ``/* */``,
    ``<!-- -->``) left out, every other word read (strings, names, CSS)."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"/\*.*?\*/|<!--.*?-->", " ", text, flags=re.S)
    text = re.sub(r"(^|\s)//[^\n]*", " ", text)
    return {w.lower() for w in re.findall(r"\w+", text) if NAMES.search(w)}


def test_no_browser_file_names_a_game() -> None:
    """The web client (``server/static``: JavaScript, HTML, CSS) draws every game from what the
    server sends; a game's name appears there only as data from the registry."""
    offenders: dict[str, set[str]] = {}
    for path in sorted(STATIC.iterdir()):
        if path.suffix not in (".js", ".html", ".css"):
            continue
        extra = static_names_in(path) - STATIC_ALLOWED.get(path.name, set())
        if extra:
            offenders[path.name] = extra
    assert not offenders, offenders
    stale = {name: words - static_names_in(STATIC / name) for name, words in STATIC_ALLOWED.items()}
    assert not {name: words for name, words in stale.items() if words}


def test_the_static_check_reads_code_not_comments(tmp_path: Path) -> None:
    page = tmp_path / "x.js"
    page.write_text(
        '// the meitora page\n/* kakeya */ const url = "http://x/unsun";\n<!-- napoleon -->\n', encoding="utf-8"
    )
    assert static_names_in(page) == {"unsun"}
