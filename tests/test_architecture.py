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
    outside = [p for pkg in ("boards", "calibration", "vision", "companion") for p in files(pkg)
               if "companion/app" not in p.as_posix()]
    assert [str(p.relative_to(ROOT)) for p in outside if "kivy" in imported_modules(p)] == []


def test_lower_layers_never_import_upper_ones():
    """boards < calibration < vision < companion: a layer imports only those below it."""
    layers = {"boards": {"calibration", "vision", "companion"},
              "calibration": {"vision", "companion"},
              "vision": {"companion"}}
    wrong = {}
    for package, forbidden in layers.items():
        for path in files(package):
            bad = imported_modules(path) & forbidden
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
    for pkg in ("boards", "calibration", "vision", "companion"):
        for path in files(pkg):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                        and node.value.id == "yaml" and node.attr in {"load", "unsafe_load", "full_load", "load_all"}):
                    unsafe.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert unsafe == []
