"""Printed PDFs measured independently: pypdfium2 renders the pages, OpenCV measures them
(MT 1.02.b: 2 cm squares; MT 1.03.b: every token twice; MT 9.02.a: five token colours)."""
from __future__ import annotations

import collections
import hashlib
import re

import cv2
import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest

from boards import Board
from boards.markers import ARUCO_DICTIONARY, board_markers
from boards.pdf import PdfDocument, mm
from boards.printing import board_pdf, tokens_pdf
from boards.tokens import player_name
from companion.cli.main import main

PAPER_POINTS = {"a4": (595.28, 841.89), "a3": (841.89, 1190.55), "letter": (612.0, 792.0)}
RENDER_DPI = 150
CM_PER_INCH = 2.54


def open_pdf(document: PdfDocument, tmp_path, name="out.pdf") -> pdfium.PdfDocument:
    path = tmp_path / name
    document.save(path)
    return pdfium.PdfDocument(path)


def render_page(pdf, index: int, dpi: int = RENDER_DPI) -> np.ndarray:
    return pdf[index].render(scale=dpi / 72).to_numpy()[..., :3].copy()


def page_text(pdf, index: int) -> str:
    return pdf[index].get_textpage().get_text_range()


@pytest.fixture(scope="module")
def duel_pdf(tmp_path_factory):
    """A 20×12 board (MT 1.02.a two-player size), printed on A4 at a modest resolution."""
    rows = [" ".join("WUBRG"[(x + y) % 5] for x in range(20)) for y in range(12)]
    board = Board.from_rows(rows, name="Duel test")
    return board, open_pdf(board_pdf(board, paper="a4", dpi=120), tmp_path_factory.mktemp("duel"))


def test_square_pitch_is_2_cm_from_markers_mt_1_02_b(duel_pdf):
    """MT 1.02.b: on every page, distances between the ArUco markers found by OpenCV in the
    pypdfium2 raster give a square pitch of 2.00 cm ± 0.02."""
    board, pdf = duel_pdf
    expected = {m.id: m.centre for m in board_markers(board.width, board.height)}
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY)),
                                       cv2.aruco.DetectorParameters())
    pitches = []
    for index in range(len(pdf)):
        corners, ids, _ = detector.detectMarkers(cv2.cvtColor(render_page(pdf, index), cv2.COLOR_BGR2GRAY))
        found = {int(i): c.reshape(4, 2).mean(axis=0) for i, c in zip(ids.ravel(), corners)} if ids is not None else {}
        for a, b in [(a, b) for a in found for b in found if a < b]:
            grid_distance = np.linalg.norm(expected[a] - expected[b])
            if grid_distance >= 4:
                pitch_cm = np.linalg.norm(found[a] - found[b]) / grid_distance / RENDER_DPI * CM_PER_INCH
                pitches.append(pitch_cm)
    assert len(pitches) >= 10
    assert np.abs(np.array(pitches) - 2.0).max() <= 0.02


def test_square_pitch_is_2_cm_from_grid_lines_mt_1_02_b(tmp_path):
    """MT 1.02.b, second independent measure: the grid lines of an all-white board, found as dark
    columns in the rendered page, are 2.00 cm ± 0.02 apart."""
    board = Board.from_rows([" ".join(["W"] * 8)] * 6)   # 26 × 22 cm with margins: one A3 page
    pdf = open_pdf(board_pdf(board, paper="a3", dpi=150), tmp_path)
    assert len(pdf) == 1
    page = render_page(pdf, 0)
    dark = np.all(page < 90, axis=-1)
    rows_with_lines = np.where(dark.mean(axis=1) > 0.6)[0]           # horizontal grid lines (16 of 21 cm)
    band = dark[rows_with_lines.min() + 10:rows_with_lines.max() - 10]
    columns = np.where(band.mean(axis=0) > 0.95)[0]                   # vertical grid lines
    groups = np.split(columns, np.where(np.diff(columns) > 1)[0] + 1)
    centres = np.array([g.mean() for g in groups])
    assert len(centres) == board.width + 1
    pitch_cm = np.diff(centres) / RENDER_DPI * CM_PER_INCH
    assert np.abs(pitch_cm - 2.0).max() <= 0.02
    assert abs((centres[-1] - centres[0]) / RENDER_DPI * CM_PER_INCH - 2.0 * board.width) <= 0.02


@pytest.mark.parametrize("paper", ["a4", "a3", "letter"])
def test_pdf_parses_with_paper_size(paper, tmp_path):
    """The PDF opens in pdfium and every page has the paper size asked for (either orientation)."""
    board = Board.from_rows([" ".join(["G"] * 20)] * 12)
    pdf = open_pdf(board_pdf(board, paper=paper, dpi=50), tmp_path)
    assert len(pdf) >= 1
    for page in pdf:
        assert sorted(page.get_size()) == pytest.approx(sorted(PAPER_POINTS[paper]), abs=0.05)


def test_40x25_board_on_a4_pages_and_labels_mt_1_02_b(tmp_path):
    """A 40×25 board (MT 1.02.a, four players) is 90 × 60 cm with its 2.5-square margins. A4 portrait
    leaves 190 × 254 mm per page (10 mm margins, header, footer); with 1 cm overlaps that is
    ceil(890/180) = 5 across × ceil(590/244) = 3 down = 15 pages (landscape would need 4 × 4).
    Labels name the squares each page holds, and together they cover A–AN, 1–25."""
    board = Board.from_rows([" ".join(["W"] * 40)] * 25, name="Big")
    document = board_pdf(board, paper="a4", dpi=50)
    assert len(document.pages) == 15
    assert all(page.width < page.height for page in document.pages)  # portrait
    pdf = open_pdf(document, tmp_path)
    labels = [re.search(r"page (\d+) of (\d+): columns (\w+)–(\w+), rows (\d+)–(\d+)", page_text(pdf, i))
              for i in range(len(pdf))]
    assert all(labels)
    assert [int(m[1]) for m in labels] == list(range(1, 16)) and {m[2] for m in labels} == {"15"}
    assert labels[0][3] == "A" and labels[0][5] == "1"
    assert labels[-1][4] == "AN" and labels[-1][6] == "25"
    assert {m[3] for m in labels[:5]} == {m[3] for m in labels[5:10]}  # same columns in every sheet row


def test_pages_carry_scale_note_and_10_cm_bar(duel_pdf):
    """Every page says 'print at 100 %' (FR and EN) and its check bar measures 10 cm."""
    _, pdf = duel_pdf
    for index in range(len(pdf)):
        text = page_text(pdf, index)
        assert "Print at 100 %" in text and "Imprimer à 100 %" in text and "10 cm" in text
    footer = render_page(pdf, 0)[-round(1.9 / CM_PER_INCH * RENDER_DPI):]   # below the board piece
    dark = np.all(footer < 60, axis=-1).astype(np.int8)
    longest_run = 0
    for row in dark:   # the bar's outline is the longest unbroken dark line in the footer
        edges = np.flatnonzero(np.diff(np.concatenate([[0], row, [0]])))
        if len(edges):
            longest_run = max(longest_run, int((edges[1::2] - edges[::2]).max()))
    assert longest_run / RENDER_DPI * CM_PER_INCH == pytest.approx(10.0, abs=0.05)


def test_overlap_between_neighbouring_pages(duel_pdf):
    """Adjacent pages repeat a strip of the board, marked 'overlap' on both: the right edge of page 1
    shows the same pixels as the left edge of page 2, about 1 cm of them."""
    _, pdf = duel_pdf
    assert len(pdf) >= 2
    for index in range(len(pdf)):
        assert "overlap" in page_text(pdf, index)
    # ink only (grid lines, the dashed alignment line): the light shading covers a different half of
    # the overlap on each page, ink stays ink under it
    first, second = (np.all(render_page(pdf, i) < 44, axis=-1).astype(float) for i in (0, 1))
    rows = slice(first.shape[0] // 8, first.shape[0] * 7 // 8)      # through the board, header and footer left out
    right_edge = np.where(first[rows].any(axis=0))[0].max() + 1     # page 1's piece ends here
    start = round(1.0 / CM_PER_INCH * RENDER_DPI)                    # page 2's piece starts 10 mm from the edge
    width = round(0.8 / CM_PER_INCH * RENDER_DPI)
    strip = second[rows, start:start + width]
    search = range(right_edge - round(2.0 / CM_PER_INCH * RENDER_DPI), right_edge - width)
    scores = [float((first[rows, x:x + width] * strip).sum()) for x in search]
    best = search[int(np.argmax(scores))]
    assert max(scores) > 0.8 * strip.sum()
    overlap_cm = (right_edge - best) / RENDER_DPI * CM_PER_INCH
    assert overlap_cm == pytest.approx(1.0, abs=0.05)


def count_token_images(pdf) -> list[collections.Counter]:
    """Per page: how many times each distinct token bitmap is drawn, and its printed diameter."""
    pages = []
    for page in pdf:
        counts = collections.Counter()
        for image in page.get_objects(filter=[pdfium_raw.FPDF_PAGEOBJ_IMAGE]):
            left, bottom, right, top = image.get_bounds()
            assert (right - left) / mm(1) <= 20.0 and (top - bottom) / mm(1) <= 20.0  # fits a 2 cm square
            counts[hashlib.sha1(image.get_bitmap().to_numpy().tobytes()).hexdigest()] += 1
        pages.append(counts)
    return pages


def test_token_sheet_prints_every_number_twice_mt_1_03_b(tmp_path):
    """MT 1.03.b: each token exists twice — every distinct token image is drawn exactly twice,
    there are `count` distinct tokens per player, and each player's sheet names its colour (MT 9.02.a)."""
    players, count = 3, 12
    pdf = open_pdf(tokens_pdf(players, count, paper="a4", dpi=150), tmp_path)
    pages = count_token_images(pdf)
    assert len(pages) == players
    for counts in pages:
        assert len(counts) == count
        assert set(counts.values()) == {2}
    all_tokens = [h for counts in pages for h in counts]
    assert len(set(all_tokens)) == players * count          # no two players share a token
    for player in range(1, players + 1):
        assert f"joueur {player}: {player_name(player, 'fr')}" in page_text(pdf, player - 1)


def test_packed_token_sheet_shares_pages_mt_1_03_b(tmp_path):
    """Packed: 5 players × 8 numbers (MT 9.02.a, five colours) fit on one A4 page, still two of each
    number and 40 distinct tokens, and the legend names every player."""
    pdf = open_pdf(tokens_pdf(5, 8, paper="a4", dpi=100, packed=True), tmp_path)
    (counts,) = count_token_images(pdf)
    assert len(counts) == 5 * 8 and set(counts.values()) == {2}
    legend = page_text(pdf, 0)
    assert all(f"{p} {player_name(p, 'fr')}/{player_name(p, 'en')}" in legend for p in range(1, 6))


def test_token_diameter_fits_a_square_mt_1_03_b(tmp_path):
    """Tokens print at 17.5 mm across: inside a 2 cm square (measured from the PDF)."""
    pdf = open_pdf(tokens_pdf(1, 2, paper="letter"), tmp_path)
    for image in pdf[0].get_objects(filter=[pdfium_raw.FPDF_PAGEOBJ_IMAGE]):
        left, bottom, right, top = image.get_bounds()
        assert (right - left) / mm(1) == pytest.approx(17.5, abs=0.05)


def test_pdf_xref_offsets_point_at_objects(duel_pdf, tmp_path):
    """The writer's cross-reference table is exact: each offset starts 'N 0 obj'."""
    data = PdfDocument("t")
    page = data.add_page(mm(210), mm(297))
    page.text(10, 10, "Vérifier « 10 cm » – ok")
    page.circle(100, 100, 20, stroke=0)
    raw = data.to_bytes()
    xref_at = int(re.search(rb"startxref\n(\d+)", raw)[1])
    lines = raw[xref_at:].split(b"\n")
    assert lines[0] == b"xref"
    count = int(lines[1].split()[1])
    for number in range(1, count):
        offset = int(lines[2 + number][:10])
        assert raw[offset:].startswith(f"{number} 0 obj".encode())
    path = tmp_path / "t.pdf"
    path.write_bytes(raw)
    assert "Vérifier « 10 cm » – ok" in pdfium.PdfDocument(path)[0].get_textpage().get_text_range()


@pytest.mark.parametrize("argv, needle", [
    (["print", "board", "no-such-board.yaml"], "no-such-board.yaml"),
    (["print", "tokens", "--players", "6", "--count", "3"], "--players"),
    (["print", "tokens", "--players", "0", "--count", "3"], "--players"),
    (["print", "tokens", "--players", "2", "--count", "500"], "--count"),
])
def test_cli_bad_input_one_line_exit_2(argv, needle, tmp_path, capsys):
    """Bad input: one clear line on stderr naming the problem, exit status 2, no traceback."""
    assert main([*argv, "--out", str(tmp_path / "x.pdf")]) == 2
    err = capsys.readouterr().err
    assert needle in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_cli_bad_board_file_names_row_and_column(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text('name: x\nplayers: 2\nrows:\n  - "W U Q"\n', encoding="utf-8")
    assert main(["print", "board", str(bad), "--out", str(tmp_path / "x.pdf")]) == 2
    err = capsys.readouterr().err
    assert "row 1" in err and "column 3" in err


def test_cli_prints_board_and_tokens(tmp_path, capsys):
    board = tmp_path / "b.yaml"
    board.write_text('name: Mini\nplayers: 2\nrows:\n  - "W U B"\n  - "R G@ G*"\n', encoding="utf-8")
    assert main(["print", "board", str(board), "--out", str(tmp_path / "b.pdf"), "--dpi", "60"]) == 0
    assert main(["print", "tokens", "--players", "2", "--count", "4", "--out", str(tmp_path / "t.pdf"),
                 "--paper", "letter"]) == 0
    assert len(pdfium.PdfDocument(tmp_path / "b.pdf")) == 1
    assert len(pdfium.PdfDocument(tmp_path / "t.pdf")) == 2
