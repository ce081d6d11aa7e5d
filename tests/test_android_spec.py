"""buildozer.spec against what the app uses (issue #27): no Android SDK is reachable here, so the
spec is read as text. An APK built from a spec that lacks a recipe starts and then fails the first
time the missing module is imported (the card update over HTTPS, a .json.xz card file), far from
any build log; these tests say which line of the spec to fix instead."""
from __future__ import annotations

import ast
import configparser
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "buildozer.spec"
# pyproject's distribution name → python-for-android recipe name
RECIPE_OF_DISTRIBUTION = {"numpy": "numpy", "opencv-python": "opencv", "kivy": "kivy", "pyyaml": "pyyaml"}
# a standard-library module whose C part Android's Python only has with this recipe
RECIPES_OF_STDLIB_MODULE = {
    "sqlite3": ("sqlite3",),
    "lzma": ("liblzma",),
    "bz2": ("libbz2",),
    "ssl": ("openssl",),
    "urllib.request": ("openssl", "certifi"),   # https:// needs ssl and a CA bundle
    "http.client": ("openssl", "certifi"),
}


def _spec() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(SPEC, encoding="utf-8")
    return parser["app"]


def _listed(value: str) -> list[str]:
    return [item.strip() for item in value.split(",") if item.strip()]


def _requirement_names() -> set[str]:
    return {re.split(r"[=<>!~]", item, maxsplit=1)[0].lower() for item in _listed(_spec()["requirements"])}


def _shipped_packages() -> tuple[str, ...]:
    """The project's packages the APK ships: the folders `source.include_patterns` names ("boards/*")."""
    return tuple(pattern[:-2] for pattern in _listed(_spec()["source.include_patterns"]) if pattern.endswith("/*"))


def _project_packages() -> set[str]:
    """The project's own top-level packages (a folder beside buildozer.spec with an __init__.py)."""
    return {path.parent.name for path in ROOT.glob("*/__init__.py")}


def _is_type_checking_block(node: ast.AST) -> bool:
    """`if TYPE_CHECKING:` (or `if typing.TYPE_CHECKING:`)."""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _shipped_imports() -> dict[str, Path]:
    """Every module the shipped code imports (dotted, absolute), with one file that imports it. Imports
    under `if TYPE_CHECKING:` are left out: only the type checker reads them (e.g. `_typeshed`), the
    package never runs them."""
    found: dict[str, Path] = {}
    for package in _shipped_packages():
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            typing_only = {id(inner) for node in ast.walk(tree) if _is_type_checking_block(node)
                           for statement in node.body for inner in ast.walk(statement)}
            for node in ast.walk(tree):
                if id(node) in typing_only:
                    continue
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    found.setdefault(name, path.relative_to(ROOT))
    return found


def test_requirements_cover_the_runtime_dependencies_of_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = _requirement_names()
    for dependency in project["dependencies"]:
        distribution = re.split(r"[=<>!~\[; ]", dependency, maxsplit=1)[0].lower()
        assert distribution in RECIPE_OF_DISTRIBUTION, (
            f"pyproject.toml: runtime dependency {distribution!r} has no python-for-android recipe named "
            "in tests/test_android_spec.py (RECIPE_OF_DISTRIBUTION): add it there and to buildozer.spec")
        assert RECIPE_OF_DISTRIBUTION[distribution] in requirements, (
            f"buildozer.spec [app] requirements: {RECIPE_OF_DISTRIBUTION[distribution]!r} missing "
            f"(pyproject.toml depends on {distribution!r})")


def test_requirements_cover_the_standard_modules_that_need_a_native_recipe():
    requirements = _requirement_names()
    imports = _shipped_imports()
    checked = 0
    for module, recipes in RECIPES_OF_STDLIB_MODULE.items():
        if module not in imports:
            continue
        checked += 1
        for recipe in recipes:
            assert recipe in requirements, (
                f"buildozer.spec [app] requirements: {recipe!r} missing ({imports[module]} imports {module})")
    assert checked, "none of the modules this test knows is imported any more: update RECIPES_OF_STDLIB_MODULE"


def test_every_import_is_a_shipped_package_or_a_requirement():
    """A package of the project the APK leaves out (safeio, new in #30) fails as a missing recipe does."""
    requirements, shipped = _requirement_names(), _shipped_packages()
    top_level_recipe = {"cv2": "opencv", "numpy": "numpy", "kivy": "kivy", "yaml": "pyyaml",
                        "jnius": "pyjnius", "android": "android", "certifi": "certifi"}
    for module, path in _shipped_imports().items():
        top = module.split(".")[0]
        if top in sys.stdlib_module_names or top in shipped:
            continue
        assert top not in _project_packages(), (
            f"buildozer.spec [app] source.include_patterns: '{top}/*' missing ({path} imports {module})")
        assert top in top_level_recipe, f"{path} imports {top!r}: which python-for-android recipe ships it?"
        assert top_level_recipe[top] in requirements, (
            f"buildozer.spec [app] requirements: {top_level_recipe[top]!r} missing ({path} imports {module})")


def test_permissions_match_what_the_app_does():
    permissions = set(_listed(_spec()["android.permissions"]))
    assert "CAMERA" in permissions, "buildozer.spec android.permissions: CAMERA missing (the Camera screen)"
    imports = _shipped_imports()
    downloads = [str(path) for module, path in imports.items() if module in ("urllib.request", "http.client")]
    assert downloads, "nothing downloads any more (companion/cards/download.py): is INTERNET still needed?"
    assert "INTERNET" in permissions, (
        f"buildozer.spec android.permissions: INTERNET missing ({', '.join(sorted(set(downloads)))} download)")


def test_the_app_turns_with_the_device():
    """Phone layouts are portrait and landscape (issue #27): the package must allow both."""
    orientations = set(_listed(_spec()["orientation"]))
    assert {"portrait", "landscape"} <= orientations, (
        f"buildozer.spec orientation = {', '.join(sorted(orientations))}: portrait and landscape both needed")


def test_python_for_android_is_pinned_to_a_release():
    branch = _spec().get("p4a.branch", "")
    assert re.fullmatch(r"v\d{4}\.\d{2}\.\d{2}", branch), (
        f"buildozer.spec p4a.branch = {branch!r}: pin a python-for-android release tag (vYYYY.MM.DD), "
        "not a moving branch")


def test_https_finds_a_ca_bundle_on_android(monkeypatch):
    """Android's OpenSSL has no CA file: the app names certifi's (a requirement above) before any
    download, and keeps one the environment already names."""
    from companion.app import platform_services

    monkeypatch.setattr(platform_services, "ON_ANDROID", True)
    environ: dict[str, str] = {}
    platform_services.trust_bundled_certificates(environ)
    assert Path(environ["SSL_CERT_FILE"]).is_file()
    environ = {"SSL_CERT_FILE": "/etc/ssl/mine.pem"}
    platform_services.trust_bundled_certificates(environ)
    assert environ == {"SSL_CERT_FILE": "/etc/ssl/mine.pem"}
