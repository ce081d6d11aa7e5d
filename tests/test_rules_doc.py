"""docs/rules.md maps every rule number of the Magic Tactical seed to code and tests (or says why not).

The seed is copied in tests/fixtures/seeds/ (from ../shared/seeds/) so the check runs anywhere.
"""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "tests" / "fixtures" / "seeds" / "magic-tactical-rules.fr.txt"
DOC = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


def seed_rule_numbers() -> list[str]:
    """Rule numbers as the seed writes them at the start of a line: '4.03.c _', '2.02.b.01 _'."""
    return re.findall(r"^(\d\.\d{2,3}(?:\.[a-z])?(?:\.\d+)?)\s*_", SEED.read_text(encoding="utf-8"), re.M)


def documented(number: str) -> bool:
    """Named as such, or inside a documented group: '2.02.b (.01–.05)', '3.01.a–b', '4.05–4.07'."""
    if re.search(re.escape(number) + r"(?!\d)", DOC):
        return True
    sub = re.match(r"(\d\.\d\d\.[a-z])\.\d+$", number)
    if sub and sub.group(1) in DOC:
        return True
    letter = re.match(r"(\d\.\d\d)\.([a-z])$", number)
    if letter and any(a <= letter.group(2) <= b
                      for a, b in re.findall(re.escape(letter.group(1)) + r"\.([a-z])–([a-z])", DOC)):
        return True
    major = re.match(r"(\d)\.(\d\d)$", number)
    if major:
        for first, last in re.findall(rf"{major.group(1)}\.(\d\d)–{major.group(1)}\.(\d\d)", DOC):
            if int(first) <= int(major.group(2)) <= int(last):
                return True
    return False


def test_the_seed_has_rule_numbers():
    assert len(seed_rule_numbers()) > 100


def test_every_mt_rule_number_is_in_docs_rules_md():
    """MT 1–9: every rule of the seed appears in docs/rules.md (code + tests, or why left to players)."""
    assert [n for n in seed_rule_numbers() if not documented(n)] == []


def test_every_section_of_the_formats_has_its_table():
    for heading in ("## PC — Planechase", "## HO — Horde", "## BR — Basic rules"):
        section = DOC.split(heading, 1)[1].split("\n## ", 1)[0]
        assert section.count("\n|") >= 5, heading
