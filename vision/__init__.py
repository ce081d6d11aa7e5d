"""Per-frame recognition on a registered board: `scan` (architecture.md), square
reading, symbols, tokens and tracking, and the synthetic photographer."""
from vision.scanner import ScanResult, scan

__all__ = ["scan", "ScanResult"]
