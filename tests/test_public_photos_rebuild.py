"""Issue 28: the public photo sets are rebuilt on a new machine from local git copies of their
sources (`companion.bench.public_photos`), transformed as their labels say, so the benches measure
the pixels the labels were drawn on. Checked on a tiny repository made here; no network."""
from __future__ import annotations

import subprocess

import cv2
import numpy as np
import pytest

from companion.bench import public_photos
from companion.bench.public_photos import Wanted, find_git_dir, grids_public_wanted, negatives_wanted, rebuild


@pytest.fixture()
def source_repo(tmp_path):
    """A git repository `owner/name` holding one 1000×500 PNG, and its commit."""
    work = tmp_path / "mirrors" / "owner+name"
    (work / "images").mkdir(parents=True)
    image = np.zeros((500, 1000, 3), np.uint8)
    image[:, 500:] = (0, 0, 255)
    cv2.imwrite(str(work / "images" / "a.png"), image)
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    for command in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "photo"]):
        subprocess.run(["git", "-C", str(work), *command], check=True, env=env)
    commit = subprocess.run(["git", "-C", str(work), "rev-parse", "HEAD"], check=True, capture_output=True,
                            text=True).stdout.strip()
    return tmp_path / "mirrors", commit, (work / "images" / "a.png").read_bytes()


def test_a_negative_is_capped_at_800_px_and_a_scaled_copy_takes_its_label_size(source_repo, tmp_path):
    mirrors, commit, png = source_repo
    capped = Wanted(tmp_path / "out" / "n.jpg", "owner/name", commit, "images/a.png", None, 800, 85)
    scaled = Wanted(tmp_path / "out" / "s.jpg", "owner/name", commit, "images/a.png", (320, 160), None, 92)
    copied = Wanted(tmp_path / "out" / "c.png", "owner/name", commit, "images/a.png", None, None, None)
    assert rebuild([capped, scaled, copied], mirrors) == (3, [])
    assert cv2.imread(str(capped.target)).shape == (400, 800, 3)
    small = cv2.imread(str(scaled.target))
    assert small.shape == (160, 320, 3) and small[80, 300, 2] > 200 and small[80, 20, 2] < 50
    assert copied.target.read_bytes() == png
    assert rebuild([capped], mirrors) == (0, []), "a photo already there is kept"


def test_what_cannot_be_found_is_named_and_nothing_half_written(source_repo, tmp_path):
    mirrors, commit, _ = source_repo
    absent_repo = Wanted(tmp_path / "out" / "x.jpg", "other/repo", commit, "images/a.png", None, 800, 85)
    absent_path = Wanted(tmp_path / "out" / "y.jpg", "owner/name", commit, "images/b.png", None, 800, 85)
    written, problems = rebuild([absent_repo, absent_path], mirrors)
    assert written == 0
    assert "no copy of other/repo" in problems[0] and "images/b.png" in problems[1]
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_the_mirror_layouts_are_both_found(tmp_path):
    (tmp_path / "a+b" / "repo").mkdir(parents=True)
    (tmp_path / "a+b" / "repo" / "HEAD").write_text("ref: refs/heads/main\n")
    (tmp_path / "c" / "d" / ".git").mkdir(parents=True)
    assert find_git_dir(tmp_path, "a/b") == tmp_path / "a+b" / "repo"
    assert find_git_dir(tmp_path, "c/d") == tmp_path / "c" / "d"
    assert find_git_dir(tmp_path, "e/f") is None


def test_every_listed_photo_has_a_rule_that_matches_its_label():
    """The small copies and re-encoded sudokus are resized to the label's size; the rest are byte copies;
    every negative from a repository is capped at 800 px (the manifest's header)."""
    grids = grids_public_wanted()
    assert len(grids) >= 40
    assert {w.quality for w in grids} == {None, public_photos.SCALED_COPY_QUALITY, public_photos.RE_ENCODED_QUALITY}
    assert all((w.size is None) == (w.quality is None) for w in grids)
    negatives = negatives_wanted()
    assert len(negatives) >= 100 and all(w.long_side == 800 and w.quality == 85 for w in negatives)
