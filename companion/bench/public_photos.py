"""Rebuild the public photo sets (`grids-public`, `negatives`) from local copies of their repositories.

The photos of those sets are other repositories' files and are not committed here: the labels
(`tests/fixtures/grids-public/labels.json`) and the manifest (`tests/fixtures/negatives/manifest.yaml`)
name each photo's repository, path and commit. This module takes them out of git clones on this
machine and writes them where the benches look (`public_photo_folder`), transformed exactly as the
labels say, so that a new machine gets the same pixels the labels were measured on:

- grids-public: a byte copy; or, when the label says the photo was scaled (the `-320x180` copies) or
  re-encoded, the source resized to the label's `image_size` with INTER_AREA and written at the JPEG
  quality its notes give (92 for the small copies, 85 for the re-encoded sudokus);
- negatives: downscaled to at most 800 px on the long side (INTER_AREA), JPEG quality 85, as the
  manifest's header says.

    python -m companion.bench.public_photos --from DIR [--set grids-public|negatives]

DIR holds one git repository (bare or not) per source, named `owner+name` (with an optional `repo`
inside, the layout the project's mirror tool writes) or `owner/name`. Nothing is executed from the
repositories: files are read with `git cat-file` at the listed commit. Photos already present are
kept; the run ends with what it wrote and what it could not find.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import yaml

from companion.bench.common import public_photo_folder
from companion.bench.grids_public import GRIDS_PUBLIC, public_labels
from companion.bench.negatives import NEGATIVES

NEGATIVE_LONG_SIDE = 800
NEGATIVE_QUALITY = 85
SCALED_COPY_QUALITY = 92
RE_ENCODED_QUALITY = 85


@dataclass(frozen=True)
class Wanted:
    """One photo to write: where it goes, where it comes from and how it is transformed."""
    target: Path
    repo: str
    commit: str
    path: str
    size: tuple[int, int] | None  # exact (w, h) to resize to; None: keep or cap the long side
    long_side: int | None  # cap on the long side (negatives); None: no cap
    quality: int | None  # JPEG quality; None: byte copy


def grids_public_wanted(folder: Path = GRIDS_PUBLIC) -> list[Wanted]:
    """The grids-public photos as their labels describe them (README.md of the set)."""
    out = public_photo_folder("grids-public")
    wanted = []
    for entry in public_labels(folder):
        notes = str(entry.get("notes", ""))
        source = entry["source"]
        if "scaled to" in notes:
            quality: int | None = SCALED_COPY_QUALITY
        elif "re-encoded" in notes:
            quality = RE_ENCODED_QUALITY
        else:
            quality = None
        width, height = entry["image_size"]
        wanted.append(Wanted(out / entry["file"], source["repo"], source["commit"], source["path"],
                             (int(width), int(height)) if quality is not None else None, None, quality))
    return wanted


def negatives_wanted(folder: Path = NEGATIVES) -> list[Wanted]:
    """The negative set's photos from public repositories (the Debian ones are committed)."""
    with open(folder / "manifest.yaml", encoding="utf-8") as fh:
        manifest = yaml.safe_load(fh)
    out = public_photo_folder("negatives")
    return [Wanted(out / entry["file"], entry["source"]["repo"], entry["source"]["commit"], entry["source"]["path"],
                   None, NEGATIVE_LONG_SIDE, NEGATIVE_QUALITY)
            for entry in manifest["photos"] if entry["source"]["kind"] == "github"]


def find_git_dir(mirrors: Path, repo: str) -> Path | None:
    """The git directory of `owner/name` under `mirrors`, in either layout the module docstring names."""
    owner, name = repo.split("/", 1)
    for candidate in (mirrors / f"{owner}+{name}" / "repo", mirrors / f"{owner}+{name}", mirrors / owner / name):
        if (candidate / "HEAD").is_file() or (candidate / ".git").exists():
            return candidate
    return None


def read_blob(git_dir: Path, commit: str, path: str) -> bytes:
    """The file's bytes at the commit; a clear error naming the repository, commit and path if absent."""
    done = subprocess.run(["git", f"--git-dir={git_dir / '.git' if (git_dir / '.git').exists() else git_dir}",
                           "cat-file", "blob", f"{commit}:{path}"], capture_output=True, check=False)
    if done.returncode != 0:
        raise FileNotFoundError(f"{git_dir}: {path} at {commit[:12]} is not in this copy of the repository")
    return done.stdout


def transformed(data: bytes, wanted: Wanted) -> bytes:
    """The photo's bytes as the set keeps it (see the module docstring)."""
    if wanted.quality is None:
        return data
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"{wanted.repo}:{wanted.path}: not a readable image")
    h, w = image.shape[:2]
    size = wanted.size
    if size is None and wanted.long_side is not None and max(w, h) > wanted.long_side:
        scale = wanted.long_side / max(w, h)
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
    if size is not None and size != (w, h):
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, wanted.quality])
    if not ok:
        raise ValueError(f"{wanted.repo}:{wanted.path}: could not be encoded as JPEG")
    return encoded.tobytes()


def rebuild(wanted: list[Wanted], mirrors: Path) -> tuple[int, list[str]]:
    """Write every wanted photo not yet present; (how many written, what could not be)."""
    written, problems = 0, []
    for item in wanted:
        if item.target.is_file():
            continue
        git_dir = find_git_dir(mirrors, item.repo)
        if git_dir is None:
            problems.append(f"{item.target.name}: no copy of {item.repo} under {mirrors}")
            continue
        try:
            data = transformed(read_blob(git_dir, item.commit, item.path), item)
        except (FileNotFoundError, ValueError) as exc:
            problems.append(f"{item.target.name}: {exc}")
            continue
        item.target.parent.mkdir(parents=True, exist_ok=True)
        partial = item.target.with_suffix(item.target.suffix + ".part")
        partial.write_bytes(data)
        partial.replace(item.target)
        written += 1
    return written, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.bench.public_photos", description=__doc__.split("\n")[0])
    parser.add_argument("--from", dest="mirrors", type=Path, required=True,
                        help="folder holding one git copy per source repository (owner+name or owner/name)")
    parser.add_argument("--set", choices=("grids-public", "negatives", "both"), default="both")
    args = parser.parse_args(argv)
    wanted = []
    if args.set in ("grids-public", "both"):
        wanted += grids_public_wanted()
    if args.set in ("negatives", "both"):
        wanted += negatives_wanted()
    written, problems = rebuild(wanted, args.mirrors)
    print(f"public photos: {written} written, {len(wanted) - written - len(problems)} already there, "
          f"{len(problems)} not found")
    for problem in problems:
        print(f"  {problem!r}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
