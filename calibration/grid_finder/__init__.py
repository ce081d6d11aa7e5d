"""Markerless grid finding: the homography of any printed or drawn N×M grid in a photo.

Used when our fiducial markers are hidden and for boards we did not print (a chessboard, a hand-drawn
grid). `find_grid` (calibration.grid_finder.find) reads as its stages, each a module with its own
section of the configuration (docs/grid-finding.md):

1. segments (`segments.find_segments`, `grid.segments`): LSD segments on a working image, weighed by
   their sharpness in the plain photo;
2. line families and vanishing points (`families.line_families`, `grid.families`): pairs of the
   strongest crossed directions, a vanishing point each, each family where the other one is;
3. lattice fit, through the lens (`lattice.lattice_hypothesis`, `lattice.fit_lattice`,
   `lattice.follow_lens`, `grid.lattice`): combs after rectification, refined on the segments, followed
   where the lines bend;
4. extent (`extent.find_extent`, `grid.extent`): the rectangle of lattice lines the photo's edges
   support; size unknown, the whole grid or none;
5. verification (calibration.grid_verify, `verify`): only a grid the photo proves is returned;
6. result (`result.grid_result`, `grid.result`): squares that look like squares, read upright, in the
   photo's pixels, with the sides where the photo does not show whether it goes on.
"""
from calibration.config import GridFinderConfig
from calibration.grid_finder.find import NO_SIDE_REASON, find_grid, find_verified_grid
from calibration.grid_finder.result import SIDES, GridFit, open_sides, upright_mapping

__all__ = ["GridFinderConfig", "GridFit", "NO_SIDE_REASON", "SIDES", "find_grid", "find_verified_grid", "open_sides",
           "upright_mapping"]
