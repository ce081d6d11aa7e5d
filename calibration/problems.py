"""Why reading a camera or a photo failed, said in the table's language.

The camera and vision layers know no language; their messages are English where a string is
expected (the command line, the scan JSON, logs). A `Problem` is that English string, carrying the
key and fields the app needs to say the same thing in French (`companion/i18n/<lang>/camera.yaml`).
"""
from __future__ import annotations

from collections.abc import Mapping


class Problem(str):
    """An English message (a plain `str` everywhere) with its translation `key` (`area.name`) and
    `fields`. `wordings` maps each name of the area to its English."""

    key: str
    fields: dict[str, str]

    def __new__(cls, wordings: Mapping[str, str], area: str, name: str, **fields):
        shown = {field: str(value) for field, value in fields.items()}
        problem = super().__new__(cls, wordings[name].format(**shown))
        problem.key, problem.fields = f"{area}.{name}", shown
        return problem

    def __reduce__(self):  # copied or pickled as the same message, key and fields
        return _rebuilt, (str(self), self.key, self.fields)


def _rebuilt(english: str, key: str, fields: dict[str, str]) -> Problem:
    problem = str.__new__(Problem, english)
    problem.key, problem.fields = key, fields
    return problem


def say(problem: str, translate) -> str:
    """`problem` in the language of `translate(key, **fields)`; a plain string (no key) as it is."""
    return translate(problem.key, **problem.fields) if isinstance(problem, Problem) else str(problem)
