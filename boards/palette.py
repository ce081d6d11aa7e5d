"""Printed colours of squares, chosen for people and for the camera.

Owned by printing (boards.render); read by vision as the prior for square
colours. Values are BGR (OpenCV order). See docs/printing.md for the reasons
and the measured separations.
"""
SQUARE_BGR = {
    "W": (228, 240, 246),   # warm white, kept apart from the paper margin
    "U": (196, 112, 24),    # blue
    "B": (48, 44, 42),      # black (dark grey so that ink glyphs still show)
    "R": (40, 44, 208),     # red
    "G": (64, 150, 36),     # green
}
OBSTACLE_BGR = (150, 150, 150)  # uncoloured square (MT 2.03.a): neutral grey, hatched
PAPER_BGR = (255, 255, 255)
INK_BGR = (20, 20, 20)
