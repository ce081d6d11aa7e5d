"""A small, correct PDF 1.4 writer: pages, RGB images at exact physical size, text, lines.

Just enough to print boards and token sheets at exact scale without a new
dependency. Images are Flate-compressed RGB (lossless: square colours stay
flat, unlike JPEG) and placed with the `cm` operator, so their printed size is
the size asked for, whatever their pixel count. Coordinates are PDF points
(1/72 inch) from the bottom-left corner of the page, as in PDF itself; `mm()`
converts. Text uses the standard Helvetica fonts in WinAnsiEncoding, which
covers French accents, « », – and —.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

POINTS_PER_INCH = 72.0
MM_PER_INCH = 25.4
PAPER_SIZES_MM = {"a4": (210.0, 297.0), "a3": (297.0, 420.0), "letter": (215.9, 279.4)}
FONTS = {"Helvetica": "F1", "Helvetica-Bold": "F2"}
_BEZIER_CIRCLE = 0.5522847498  # control-point distance for a quarter circle


def mm(value: float) -> float:
    """Millimetres -> PDF points."""
    return value * POINTS_PER_INCH / MM_PER_INCH


def _num(value: float) -> str:
    """A PDF number: fixed point with 4 decimals (0.00004 pt ≈ 14 nm), no trailing zeros."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _pdf_string(text: str) -> bytes:
    """A literal string in WinAnsiEncoding; characters outside it become '?'."""
    raw = text.encode("cp1252", errors="replace")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


@dataclass(frozen=True)
class ImageRef:
    """An image stored once in the document; draw it on any page, any number of times."""

    name: str
    width_px: int
    height_px: int


@dataclass
class PdfPage:
    width: float   # points
    height: float
    _ops: list[bytes] = field(default_factory=list)
    _images: set[str] = field(default_factory=set)
    _alphas: dict[str, float] = field(default_factory=dict)

    def _emit(self, *parts) -> None:
        self._ops.append(b" ".join(p if isinstance(p, bytes) else str(p).encode("ascii") for p in parts))

    def draw_image(self, image: ImageRef, x: float, y: float, width: float, height: float) -> None:
        """Place an image so that its bitmap fills exactly [x, x+width] × [y, y+height] (points)."""
        self._images.add(image.name)
        self._emit("q", _num(width), "0 0", _num(height), _num(x), _num(y), "cm", f"/{image.name} Do Q")

    def text(self, x: float, y: float, text: str, size: float = 9.0, font: str = "Helvetica",
             grey: float = 0.0, vertical: bool = False) -> None:
        """Text with its baseline starting at (x, y); `vertical` runs it bottom to top."""
        matrix = "0 1 -1 0" if vertical else "1 0 0 1"
        self._emit("BT", f"{_num(grey)} g /{FONTS[font]}", _num(size), "Tf", matrix, _num(x), _num(y), "Tm",
                   _pdf_string(text), b"Tj ET")

    def line(self, x0: float, y0: float, x1: float, y1: float, width: float = 0.5, grey: float = 0.0,
             dash: tuple[float, float] | None = None) -> None:
        pattern = f"[{_num(dash[0])} {_num(dash[1])}] 0 d" if dash else "[] 0 d"
        self._emit("q", _num(width), "w", _num(grey), "G", pattern, _num(x0), _num(y0), "m", _num(x1),
                   _num(y1), "l S Q")

    def rect(self, x: float, y: float, width: float, height: float, *, fill: float | None = None,
             stroke: float | None = None, line_width: float = 0.5, alpha: float = 1.0,
             dash: tuple[float, float] | None = None) -> None:
        """A rectangle filled and/or stroked in grey levels (0 black .. 1 white), optionally translucent."""
        self._shape([("re", [x, y, width, height])], fill, stroke, line_width, alpha, dash)

    def circle(self, cx: float, cy: float, radius: float, *, fill: float | None = None,
               stroke: float | None = None, line_width: float = 0.5,
               dash: tuple[float, float] | None = None) -> None:
        k = radius * _BEZIER_CIRCLE
        r = radius
        path = [("m", [cx + r, cy]),
                ("c", [cx + r, cy + k, cx + k, cy + r, cx, cy + r]),
                ("c", [cx - k, cy + r, cx - r, cy + k, cx - r, cy]),
                ("c", [cx - r, cy - k, cx - k, cy - r, cx, cy - r]),
                ("c", [cx + k, cy - r, cx + r, cy - k, cx + r, cy]),
                ("h", [])]
        self._shape(path, fill, stroke, line_width, 1.0, dash)

    def _shape(self, path, fill, stroke, line_width, alpha, dash) -> None:
        if fill is None and stroke is None:
            raise ValueError("a shape needs a fill or a stroke")
        ops = ["q"]
        if alpha < 1.0:
            name = f"GS{len(self._alphas) + 1}"
            name = next((n for n, a in self._alphas.items() if a == alpha), name)
            self._alphas[name] = alpha
            ops.append(f"/{name} gs")
        if dash:
            ops.append(f"[{_num(dash[0])} {_num(dash[1])}] 0 d")
        if fill is not None:
            ops.append(f"{_num(fill)} g")
        if stroke is not None:
            ops.append(f"{_num(stroke)} G {_num(line_width)} w")
        ops += [" ".join([*map(_num, values), op]) for op, values in path]
        ops.append({(True, True): "B", (True, False): "f", (False, True): "S"}[(fill is not None,
                                                                              stroke is not None)])
        ops.append("Q")
        self._emit(*ops)


class PdfDocument:
    """Collects pages and images, then writes one PDF file with a correct cross-reference table."""

    def __init__(self, title: str = "") -> None:
        self.title = title
        self.pages: list[PdfPage] = []
        self._images: dict[str, tuple[int, int, bytes]] = {}

    def add_page(self, width: float, height: float) -> PdfPage:
        """A new page of width × height points."""
        page = PdfPage(width, height)
        self.pages.append(page)
        return page

    def add_image(self, bgr: np.ndarray) -> ImageRef:
        """Store an 8-bit BGR (OpenCV order) or grey image, Flate-compressed, lossless."""
        array = np.asarray(bgr)
        if array.dtype != np.uint8 or array.ndim not in (2, 3):
            raise ValueError(f"expected an 8-bit grey or BGR image, got {array.dtype} {array.shape}")
        rgb = np.repeat(array[..., None], 3, axis=2) if array.ndim == 2 else array[..., 2::-1]
        name = f"Im{len(self._images) + 1}"
        height, width = rgb.shape[:2]
        self._images[name] = (width, height, zlib.compress(np.ascontiguousarray(rgb).tobytes(), 6))
        return ImageRef(name, width, height)

    def to_bytes(self) -> bytes:
        objects: list[bytes] = []   # objects[i] is object number i + 1

        def reserve() -> int:
            objects.append(b"")
            return len(objects)

        def stream(header: str, data: bytes) -> bytes:
            return f"<< {header} /Length {len(data)} >>\nstream\n".encode("ascii") + data + b"\nendstream"

        catalog, pages_obj = reserve(), reserve()
        font_ids = {}
        for base, alias in FONTS.items():
            font_ids[alias] = reserve()
            objects[font_ids[alias] - 1] = (f"<< /Type /Font /Subtype /Type1 /BaseFont /{base} "
                                            "/Encoding /WinAnsiEncoding >>").encode("ascii")
        image_ids = {}
        for name, (width, height, data) in self._images.items():
            image_ids[name] = reserve()
            objects[image_ids[name] - 1] = stream(
                f"/Type /XObject /Subtype /Image /Width {width} /Height {height} "
                "/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode", data)
        fonts = " ".join(f"/{alias} {oid} 0 R" for alias, oid in font_ids.items())
        kids = []
        for page in self.pages:
            content = reserve()
            objects[content - 1] = stream("/Filter /FlateDecode", zlib.compress(b"\n".join(page._ops), 6))
            xobjects = " ".join(f"/{n} {image_ids[n]} 0 R" for n in sorted(page._images))
            states = " ".join(f"/{n} << /Type /ExtGState /ca {_num(a)} /CA {_num(a)} >>"
                              for n, a in page._alphas.items())
            resources = f"/Font << {fonts} >>" + (f" /XObject << {xobjects} >>" if xobjects else "") + (
                f" /ExtGState << {states} >>" if states else "")
            page_id = reserve()
            objects[page_id - 1] = (f"<< /Type /Page /Parent {pages_obj} 0 R /MediaBox [0 0 {_num(page.width)} "
                                    f"{_num(page.height)}] /Resources << {resources} >> /Contents {content} 0 R >>"
                                    ).encode("ascii")
            kids.append(page_id)
        objects[catalog - 1] = f"<< /Type /Catalog /Pages {pages_obj} 0 R >>".encode("ascii")
        objects[pages_obj - 1] = (f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] "
                                  f"/Count {len(kids)} >>").encode("ascii")
        info = reserve()
        objects[info - 1] = b"<< /Producer (Magic Tactical companion) /Title " + _pdf_string(self.title) + b" >>"

        out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")  # binary comment: the file holds binary streams
        offsets = []
        for number, body in enumerate(objects, start=1):
            offsets.append(len(out))
            out += f"{number} 0 obj\n".encode("ascii") + body + b"\nendobj\n"
        xref = len(out)
        out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode("ascii")
        out += b"".join(f"{offset:010d} 00000 n \n".encode("ascii") for offset in offsets)
        out += (f"trailer\n<< /Size {len(objects) + 1} /Root {catalog} 0 R /Info {info} 0 R >>\n"
                f"startxref\n{xref}\n%%EOF\n").encode("ascii")
        return bytes(out)

    def save(self, path: str | Path) -> None:
        Path(path).write_bytes(self.to_bytes())
