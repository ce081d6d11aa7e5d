"""The dependency rules of the house (architecture.md): pure parts stay pure."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(path: Path) -> set[str]:
    """Top-level names of every module a file imports, anywhere in it."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", ["companion/rules", "companion/game"])
def test_rules_and_game_import_neither_kivy_nor_cv2(package):
    offenders = {str(p.relative_to(ROOT)): imported_modules(p) & {"kivy", "cv2"} for p in files(package)}
    assert files(package), f"{package} has no files"
    assert not {k: v for k, v in offenders.items() if v}


def test_only_companion_app_imports_kivy():
    outside = [p for pkg in ("safeio", "boards", "calibration", "vision", "companion") for p in files(pkg)
               if "companion/app" not in p.as_posix()]
    assert [str(p.relative_to(ROOT)) for p in outside if "kivy" in imported_modules(p)] == []


def test_lower_layers_never_import_upper_ones():
    """safeio < boards < calibration < vision < companion: a layer imports only those below it."""
    layers = {"safeio": {"boards", "calibration", "vision", "companion"},
              "boards": {"calibration", "vision", "companion"},
              "calibration": {"vision", "companion"},
              "vision": {"companion"}}
    wrong = {}
    for package, forbidden in layers.items():
        for path in files(package):
            bad = imported_modules(path) & forbidden
            if bad:
                wrong[str(path.relative_to(ROOT))] = sorted(bad)
    assert wrong == {}


# The layers inside `companion`, lowest first. A module imports only from its own package and from
# packages of a lower layer; two packages on one layer do not import each other.
COMPANION_LAYERS = {
    "i18n": 0,                   # the words of every package: imports nothing of the companion
    "rules": 1,                  # pure rules engine (its wording comes from i18n)
    "game": 2, "cards": 2,       # pure, side by side: game state over the rules; card look-up, whose pieces
                                 # carry the rules' keywords. Neither imports the other.
    "camera": 3,                 # the table's camera as the game sees it (companion/camera.py)
    "app": 4,                    # the Kivy app
    "bench": 5,                  # the benchmarks: they measure everything below, nothing below uses them
    "cli": 6,                    # the `tactical` command, which runs all of it (`tactical bench` included)
}


def companion_package(path: Path) -> str | None:
    """The package of `companion` a file belongs to (`companion/camera.py` is the camera layer)."""
    parts = path.relative_to(ROOT / "companion").with_suffix("").parts
    return parts[0] if parts != ("__init__",) else None


def companion_imports(path: Path) -> set[str]:
    """The packages of `companion` a file imports (`companion.game.state` -> `game`), anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            dotted = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            dotted = ([f"{node.module}.{alias.name}" for alias in node.names] if node.module == "companion"
                      else [node.module])
        else:
            continue
        found.update(name.split(".")[1] for name in dotted
                     if name.startswith("companion.") and name.split(".")[1] in COMPANION_LAYERS)
    return found


def test_every_companion_package_has_a_layer():
    """A new package must be given its place below, or the layer test would not look at its imports."""
    packages = {companion_package(p) for p in files("companion")} - {None}
    assert packages - set(COMPANION_LAYERS) == set()


def test_companion_layers_import_only_downwards():
    """Inside `companion`: i18n < rules < game, cards (side by side) < camera < app < bench < cli.

    Where cards and i18n sit comes from what they import and what imports them: `companion.i18n`
    imports nothing of the companion and is used by rules, game, cards, camera, app and cli, so it is
    the bottom; `companion.cards` imports the rules (their keywords) and i18n, is used only by the app,
    cli and bench, and neither uses nor is used by the game: a pure layer beside the game.
    The app never reaches up to the benchmarks: they measure the app, not the other way round; the
    command line sits on top, as it runs the app and the benchmarks alike."""
    wrong = {}
    for path in files("companion"):
        package = companion_package(path)
        if package is None:
            continue
        layer = COMPANION_LAYERS[package]
        bad = {used for used in companion_imports(path) if used != package and COMPANION_LAYERS[used] >= layer}
        if bad:
            wrong[str(path.relative_to(ROOT))] = sorted(bad)
    assert wrong == {}


def test_boards_use_cv2_only_for_drawing():
    drawing = {"render.py", "tokens.py", "printing.py"}
    users = {p.name for p in files("boards") if "cv2" in imported_modules(p)}
    assert users <= drawing, f"cv2 used outside rendering: {sorted(users - drawing)}"


def test_yaml_is_only_ever_safe_loaded():
    """Nothing read from a file is executed: no yaml.load / unsafe_load / full_load."""
    unsafe = []
    for pkg in ("safeio", "boards", "calibration", "vision", "companion"):
        for path in files(pkg):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                        and node.value.id == "yaml" and node.attr in {"load", "unsafe_load", "full_load", "load_all"}):
                    unsafe.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert unsafe == []


def test_the_app_names_each_game_action_as_a_function_never_as_a_string():
    """Issue #30: the UI does an action as its screen's presenter names it, a `Game` method
    (`app.play(presenter.change_life, 2, -1)`), never by a name looked up on the game
    (`app.play("change_life", …)`, `getattr(game, name)`), which no type checker or editor can follow.
    A .kv file is not type-checked: each action it calls must be one its presenter holds, or the
    button would fail only when tapped."""
    import importlib
    import re

    app = ROOT / "companion" / "app"
    by_name = re.compile(r"""\bplay\(\s*[rbuf]*["']|getattr\(\s*[\w.]*\bgame\b""")
    texts = {path: path.read_text(encoding="utf-8") for path in sorted([*app.rglob("*.py"), *app.rglob("*.kv")])}
    assert len([path for path in texts if path.suffix == ".kv"]) >= 5, "the app's .kv files were not found"
    found = [f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}: {match.group()}"
             for path, text in texts.items() for match in by_name.finditer(text)]
    assert found == [], "actions named by a string: call the presenter's function instead"

    kv = "\n".join(text for path, text in texts.items() if path.suffix == ".kv")
    imported = dict(re.findall(r"^#:import\s+(\w+)\s+([\w.]+)\s*$", kv, re.MULTILINE))  # kv imports are global
    called = re.findall(r"\bapp\.play\(\s*(\w+)\.(\w+)", kv)
    assert called, "the .kv files call no action: is this test still reading the right thing?"
    wrong = []
    for alias, name in called:
        module = imported.get(alias, "")
        action = getattr(importlib.import_module(module), name, None) if module.endswith(".presenter") else None
        if not callable(action):
            wrong.append(f"{alias}.{name} ({module or 'not imported'})")
    assert wrong == [], "a .kv file calls an action no screen presenter holds"
