"""Thresholds of the camera pipeline, one dataclass per stage (chesscog style).

Nothing in the pipeline hard-codes a threshold: each stage reads its section
of `VisionConfig`, which loads from YAML so that a user can tune a camera
without touching code. Files are read by `safeio.yamlfile` (bounded); every value is
type-checked against its field (a whole number for an int, a finite number for a float,
true/false for a bool) and its range: every numeric field has one in RANGES (a wrong value
costs memory, time, or crashes a stage: see there). Unknown sections and keys are errors; every
error names the file, the line and the field ("colour.px_per_square").
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass, replace
from pathlib import Path

from safeio.yamlfile import (FileError, Flag, Kind, Limits, Number, Record, Text, Whole, YamlDocument, file_error,
                             plain_document, read_yaml_file)


class ConfigError(FileError):
    """A configuration file that cannot be used: the file, the line, the field and why."""


def _each(fields_: str, limits: tuple) -> dict[str, tuple]:
    return dict.fromkeys(fields_.split(), limits)


# (smallest, largest) of every numeric field, by name (a name shared by two sections means the same
# there). Every field has one: a value out of range is refused with the file, the line and the field,
# before it can cost memory (px_per_square 100000 asked OpenCV for 1.9 TB), time (adapt_iterations
# 1000000: minutes per frame) or crash a stage (inner_margin 0.9 leaves a square no inside: an FFT
# of 0 points; -5.0 a matrix of negative size). A field without a range is a programming error
# (`_kind` raises at import), and tests/test_vision_config_ranges.py walks them all.
RANGES = {
    # image and window sizes (px), and what sizes a warp
    "px_per_square": (4, 128), "max_warp_px": (64, 8192), "detect_max_side_px": (100, 10_000),
    "fast_threshold_window": (3, 255), "subpixel_window_px": (1, 50), "working_size": (100, 10_000),
    "max_working_size": (100, 10_000), "unknown_long_side": (100, 10_000), "small_board_pixels": (10_000, 100_000_000),
    "sb_margin_px": (0, 256), "max_classic_bend": (0.0, 10.0), "readable_quad_px": (0.0, 10_000.0),
    # tracking: at least one frame to confirm, to leave, to settle; a hand of one square or more
    "confirm_frames": (1, 1000), "vanish_frames": (1, 100_000), "settle_frames": (1, 100_000),
    "hand_squares": (1, 10_000), "global_change": (0.0, 1.0),
    # loops and searches: each step costs time on every frame
    "adapt_iterations": (0, 10), "iterations": (1, 100), "direction_candidates": (2, 12), "max_hypotheses": (1, 32), "fallback_square_samples": (0, 10**7),
    "max_squares": (3, 200), "min_squares": (1, 200), "max_growth_rounds": (0, 10), "max_finer_comb": (1, 10),
    "finer_comb_window": (1, 40), "recheck_min_squares": (1, 200), "outline_candidates": (1, 32),
    "outline_pairs": (1, 16), "outline_tries": (1, 64), "grow_start": (2, 200), "min_corners": (2, 100),
    "max_line_points": (10, 100_000), "picture_pose_hypotheses": (1, 8), "picture_candidates": (1, 1000),
    "max_code_parts": (1, 1000), "track_markers": (1, 1000),
    "grow_factor": (1.1, 10.0),                         # at most 1: the window would never grow
    "border_step": (0.01, 0.5), "lens_step": (0.01, 0.5),   # 0: a search that never advances
    # the verification (GridVerifyConfig): points per edge, how far from the fit a line is looked for and
    # across it (in squares), contrasts in Lab units, ratios, shares of the edges
    "samples_per_edge": (1, 100), "max_long_side": (100, 10_000), "reach": (0.0, 0.5), "probe": (0.01, 0.5),
    "min_line_ratio": (0.0, 10.0), "seen_factor": (0.0, 100.0), "min_contrast": (0.0, 255.0), "chequer_line_share": (0.0, 1.0),
    "max_plain_middle": (0.0, 255.0), **_each("min_seen_share ruled_seen_share max_family_gap", (0.0, 1.0)),
    "interior_samples": (2, 30), "interior_margin": (0.0, 0.45), "interior_rings": (1, 15), "plain_quantile": (0.0, 1.0),
    "max_square_spread": (0.0, 765.0), "noise_patch_px": (4, 400), "noise_min_patches": (1, 100_000), "noise_quantile": (0.0, 1.0), "max_colour_over_light": (0.0, 255.0), **_each("max_blind_seen max_blind_lines min_alternate_absent", (0.0, 1.0)), "min_plain_share": (0.0, 1.0), "min_plain_share_chequer": (0.0, 1.0), "min_plain_share_unlined": (0.0, 1.0), "min_outer_seen": (0.0, 1.0),
    "min_line_sample_lead": (0.0, 1.0), **_each("min_ink_seen_share min_ink_share", (0.0, 1.0)), "ink_probe": (0.05, 0.5), "max_uncrossed_outer": (0.0, 1.0), "max_crossed_blank_ruled": (0.0, 1.0), "min_crossed_across": (0.0, 1.0), "min_going_on": (0.0, 1.0), "max_crossed_going_on": (0.0, 1.0), "min_beyond_seen": (0.0, 1.0), "min_beyond_seen_unruled": (0.0, 1.0), "min_chequer_step": (0.0, 255.0),
    "min_border_ratio": (0.0, 100.0), "max_chequer_beyond": (0.0, 1.0), "min_chequer_lines_going_on": (0.0, 1.0), "min_chequer_seen_going_on": (0.0, 1.0), "min_focal": (0.05, 10.0), "max_square_skew": (0.0, 100.0), "max_ring_disagreement": (0.0, 10.0), "min_outline_step": (0.0, 255.0), "border_reach": (0.0, 0.5),
    "long_line_ratio": (1.0, 100.0), "long_line_segments": (2, 1000),
    # counts compared with what a photo shows (squares, markers, segments, points, sides)
    **_each("min_markers full_resolution_retry plenty_of_quads min_line_reference min_level_pairs min_level_inks "
            "shade_max_grey_region min_hatch_reference min_colourless_reference min_family_segments "
            "min_known_edges region_squares min_points pastel_white_min", (0, 100_000)),
    "line_refine_sides": (0, 4), "min_colour_range": (0, 255),
    # a share, a fraction, a correlation or a score: 0 to 1
    **_each("min_grid_score_unknown_size lens_ransac_share min_cover doubt_below doubt_above min_confidence "
            "min_explained line_contrast_share paper_line_share max_covered_share covered_unknown token_min_unknown "
            "settled_share covered_skin covered_skin_doubt min_white_grey_mix multicolour_line_share two_tone_share "
            "two_tone_margin two_tone_stray shade_neutral_share paper_level_share paper_level_doubt "
            "foreign_wb_max_spread foreign_wb_min_brightness glyph_min_score glyph_sure_score glyph_min_evidence "
            "glyph_min_contrast "
            "hatch_min_score hatch_doubt hatch_faint_score hatch_kind_doubt hatch_hue_cover hatch_hue_doubt "
            "hatch_texture_share hatch_reference_reach min_board_fraction min_segment_frac uncrossed_weight "
            "crossing_share skew_ratio min_periodicity relative_edge_contrast empty_edge_cost min_border_support "
            "min_separator_support subdivision_strong subdivision_weak half_period_min_support half_period_ratio "
            "min_square_aspect chequer_edge_support continuation_support maybe_continuing_support "
            "finer_comb_support outline_support outline_inside outline_min_excess grow_min_seen board_fraction "
            "min_parity saddle_share fill_share max_cut_share small_board_fraction min_gain k2_gain min_colour_agreement picture_min_light "
            "picture_min_pose picture_min_first picture_min_margin picture_min_part max_code_share "
            "picture_sure_score picture_min_score size_tolerance shape_tolerance", (0.0, 1.0)),
    # a score threshold: scores are at most 1, a threshold over 1 turns the finder's answer off
    **_each("min_score good_enough_score", (0.0, 2.0)),
    # lengths in square sides; a margin at each edge must leave a square an inside (8 px squares at least)
    "inner_margin": (0.0, 0.35), "plain_centre_margin": (0.0, 0.35),
    **_each("glyph_radius line_band blend_radius shade_strip_near shade_strip_far comb_tolerance lattice_tolerance "
            "line_smooth_tolerance grow_tolerance", (0.0, 0.5)),
    **_each("border_reach lens_reach max_shift outline_line_separation picture_search picture_pose_apart "
            "cross_family_gap cross_family_reach", (0.0, 1.0)),
    **_each("margin_squares track_roi_margin min_segment_squares monotonic_margin", (0.0, 10.0)),
    # grey levels (0-255; L* and contrasts in grey levels per px within them)
    **_each("fast_threshold_offset line_min_contrast min_line_contrast min_line_floor paper_lines shade_max_step "
            "sharp_edge_contrast min_edge_contrast min_plain_contrast min_saddle picture_min_contrast "
            "picture_lit_level change_level min_structure paper_noise_offset hatch_lightness_doubt "
            "two_tone_min_split", (0.0, 255.0)),
    "clahe_clip": (0.0, 40.0), "paper_noise_factor": (0.0, 100.0), "split_noise_factor": (0.0, 100.0), "white_band_depth": (0.0, 0.5), "white_band_share": (0.0, 1.0), "plain_texture_factor": (0.0, 100.0), "plain_texture_floor": (0.0, 255.0), "white_spread_factor": (0.0, 100.0), "ink_spread_factor": (0.0, 100.0), "black_max_stray": (0.0, 1.0),
    # CIELAB distances and chroma (ΔE), Mahalanobis distances (in spreads)
    **_each("paper_tint max_white_offset two_tone_max_chroma hatch_min_chroma skin_min_chroma skin_max_chroma "
            "max_colour_distance picture_colour_slack split_min_contrast pastel_min_chroma white_spread_floor "
            "ink_spread_floor", (0.0, 200.0)),
    "default_sigma_lab": (0.5, 100.0), "max_distance": (0.5, 50.0), "adapt_sure_distance": (0.0, 50.0),
    # angles (degrees) and percentiles
    **_each("skin_min_hue skin_max_hue", (0.0, 360.0)), "pastel_max_hue_gap": (0.0, 180.0), "plain_grey_max_lightness": (0.0, 100.0), "plain_same_ink": (0.0, 100.0), "print_chroma_same": (0.0, 10.0), "white_print_chroma": (0.0, 10.0), **_each("pastel_white_gap pastel_white_reach", (0.0, 100.0)), "max_exposure": (1.0, 10.0),
    **_each("family_separation_deg min_pair_angle_deg family_tolerance_deg vp_tolerance_deg", (0.0, 90.0)),
    **_each("wb_percentile foreign_wb_percentile", (0.0, 100.0)),
    # lengths in photo pixels
    **_each("ransac_reprojection_px max_mean_error_px track_tolerance_px huber_px", (0.01, 100.0)),
    **_each("lens_trigger_px min_shift_px upsample_below_px upsample_region_below_px reliable_cell_px "
            "picture_below_px picture_check_below_px code_search_from_px", (0.0, 100.0)),
    **_each("hatch_visible_px hatch_texture_px min_square_side_px recheck_square_px same_pose_px", (0.0, 1000.0)),
    "min_square_px": (1.0, 1000.0),
    # the lens model: |k1| beyond max_k1 is no lens; k2's pull towards 0
    "max_k1": (0.0, 10.0), "k2_ridge": (0.0, 100.0),
}


@dataclass(frozen=True)
class RegistrationConfig:
    """Finding our printed boards by their ArUco markers."""

    ransac_reprojection_px: float = 4.0    # corner error tolerated by RANSAC, at 1080p scale
    min_markers: int = 2                   # fewer than this and the registration is not trusted
    max_mean_error_px: float = 3.0         # mean corner error of inliers above this: not our board
    detect_max_side_px: int = 1000         # first marker search on a frame downscaled to this
    fast_threshold_window: int = 11        # one adaptive-threshold window in the fast pass (px)
    fast_threshold_offset: float = 12.0    # ...a pixel this much darker than around it is ink: a printed
                                           # marker is; the faint grid lines, each square a closed candidate, are not
    full_resolution_retry: int = 4         # fewer markers than this: search again at full resolution
    plenty_of_quads: int = 12              # the fast pass rejected this many quads and found no marker: the
                                           # photo's ink is clear (washed-out photos of ours show 0-1): no second bar
    readable_quad_px: float = 24.0         # ... and their median side (px, reduced frame) is at least this: 4 px
                                           # per marker cell, readable there; full resolution would read no more
    subpixel_window_px: int = 3            # corner refinement window on the full-resolution frame
    min_grid_score_unknown_size: float = 0.8  # markerless fit without a given size must score this
    fit_lens: bool = True                  # fit the lens (calibration.lens) where the markers show bending:
    lens_trigger_px: float = 0.8           # ... markers off one homography, or a mean corner error above this
    lens_ransac_share: float = 0.04        # ... then markers within this share of the board's span seed the fit
    line_refine_sides: int = 3             # inlier markers on fewer sides of the board: refit on the grid lines too
    line_min_contrast: float = 3.0         # ... edges weaker than this (grey levels / px) are no line
    track_roi_margin: float = 0.8          # fast path: ROI margin around a marker, in marker sides
    track_markers: int = 4                 # fast path: markers re-detected per check
    track_tolerance_px: float = 3.0        # fast path: a marker moved more than this -> full scan


@dataclass(frozen=True)
class ColourConfig:
    """White balance and the per-square colour classifier (MT 2.02.d–e)."""

    px_per_square: int = 24                # canonical warp resolution for boards up to 20×12
    max_warp_px: int = 960                 # longest side of the canonical warp (40×25 -> 24 px/square)
    inner_margin: float = 0.14             # fraction of the side ignored at each edge (grid lines)
    glyph_radius: float = 0.30             # central disc ignored for colours when a glyph is found
    min_cover: float = 0.09                # a colour must cover this much of a square to count
    doubt_below: float = 0.04              # coverage within [min - below, min + above): doubtful colour
    doubt_above: float = 0.03
    max_distance: float = 4.0              # Mahalanobis distance beyond which a pixel is 'unknown'
    min_confidence: float = 0.80           # a reading less sure than this is flagged (MT 2.02.e)
    min_explained: float = 0.55            # below this fraction of known pixels: uncertain
    min_line_contrast: float = 12.0        # gray levels: a light square with fainter lines is covered
    line_contrast_share: float = 0.4       # ...or with less than this share of the photo's typical white square
    min_line_reference: int = 8            # plain white squares needed to know the typical line contrast
    min_line_floor: float = 1.0            # gray levels: fainter lines are missing however blurred the photo
    paper_lines: float = 24.0              # gray levels: a square's four lines this clear are not under a hand
    paper_line_share: float = 0.75         # ...or as clear as this share of the photo's typical white square's
    paper_tint: float = 10.0               # Lab ΔE of skin-hued pixels from the paper white: nearer, tinted paper
    max_covered_share: float = 0.5         # markerless fit with more squares hidden: not a board
    covered_unknown: float = 0.60          # above this fraction of unknown pixels: covered (a hand)
    token_min_unknown: float = 0.20        # a square this much of no board colour may hold a token
    settled_share: float = 0.60            # a plain square keeps this share of its colour's pixels, a hatch far less
    skin_min_hue: float = 38.0             # Lab hue (degrees) range of skin: orange-yellow, which
    skin_max_hue: float = 78.0             # no square of ours is printed in
    skin_min_chroma: float = 13.0          # ...and chroma range: paper is below, our inks far above
    skin_max_chroma: float = 45.0
    covered_skin: float = 0.30             # above this fraction of skin pixels: covered (MT 2.02.e asks a person)
    covered_skin_doubt: float = 0.08       # a doubtful square with this much skin is covered too
    min_white_grey_mix: float = 0.40       # our boards: a plain square this much white AND grey is doubtful
    max_white_offset: float = 9.0          # Lab distance of a multicoloured square's W from the paper: more, doubtful
    split_min_contrast: float = 12.0       # Lab distance between a foreign square's two sides: at least, split (#28)
    split_noise_factor: float = 3.0        # ... and this many times the photo's median (its plain squares' noise)
    white_band_depth: float = 0.2          # a foreign square's white in a band this deep past the inner margin along
    white_band_share: float = 0.8          # one side, this share of it or more: the paper between squares let in by
                                           # a grid read a little off, doubted (issue 28: 0.84-1; splits 0.53-0.63)
    pastel_min_chroma: float = 12.0        # Lab ab distance of a foreign square read W from the white: a pastel (#28)
    pastel_max_hue_gap: float = 45.0       # ... read as the U/R/G class nearest its hue within this many degrees
    white_spread_factor: float = 4.0       # a foreign W further from the photo's whites than this × their spread
    white_spread_floor: float = 4.0        # ... and than this (Lab a, b): doubtful, a washed-out pastel (#28)
    ink_spread_factor: float = 4.0         # a foreign square within this × the spread of one ink's squares (Lab) ...
    ink_spread_floor: float = 4.0          # ... or this of their middle is of that ink (#28: `_blacks_of_one_ink`,
                                           # `_inks_read_unsure`)
    black_max_stray: float = 0.1           # the B squares are one ink when at most this share of them lies further
    plain_texture_factor: float = 4.0      # a foreign grey square flatter than this × the photo's median: no obstacle drawn
    plain_texture_floor: float = 1.0       # ... or flatter than this (gray levels: the photo's squares all flat)
    plain_centre_margin: float = 0.3       # ... measured within this fraction of the side from each edge (a drawn
                                           # mark crosses the middle; neighbours blurred in stay at the border)
    plain_grey_max_lightness: float = 55.0  # ... and darker (L*) than grey inks (ours 62, others' ~69): maybe their B
    print_chroma_same: float = 0.06        # foreign W squares whose log-colour step across their line is under this: one print
    white_print_chroma: float = 0.15       # ... a block of them whose neighbours say it is this far from white in colour
                                           # (log B, G, R less their mean; pastels of other makers 0.29-0.38): doubtful
    plain_same_ink: float = 6.0            # ... and a plain grey within this (Lab) of one doubted so: the same ink
    max_exposure: float = 1.3              # a foreign square lighter than this × the balanced white: doubtful (#28)
    pastel_white_gap: float = 6.0          # foreign plain U/R/G squares within this L* of the whites: as light (#28)
    pastel_white_min: int = 3              # ... at least this many: the white may be a pastel (the balance's)
    pastel_white_reach: float = 15.0       # ... then every W and every plain colour within this L* is doubtful
    multicolour_line_share: float = 0.5    # ...beside a covered square, with lines under this share of the bar: covered
    line_band: float = 0.09                # grid-line search band each side of a square's edge (square sides)
    two_tone_max_chroma: float = 15.0      # a foreign board whose squares are this grey is two-tone (chess)
    two_tone_share: float = 0.9            # ...when this share of its squares is that grey
    two_tone_min_split: float = 25.0       # lightness gap (L*) between its two tones; less: one tone
    two_tone_margin: float = 0.25          # of the gap: a square this close to the split is uncertain
    two_tone_stray: float = 0.25           # share of a square's pixels nearer the other tone (glare): uncertain
    shade_neutral_share: float = 0.8       # a square this much white + grey is neutral (paper or grey ink)
    shade_max_step: float = 4.0            # L*: neutral squares with less step across their line are one print
    shade_strip_near: float = 0.16         # lightness strips from this far inside a square's side (past the line)
    shade_strip_far: float = 0.32          # ...to this far
    min_level_pairs: int = 3               # sure neighbour pairs that give an ink's level against the paper
    min_level_inks: int = 2                # ...inks seen so, to fit the photo's tone when no grey hatch borders paper
    paper_level_share: float = 0.5         # our boards: a flat grey above this share of the grey ink's level is paper
    paper_level_doubt: float = 0.15        # ...within this share of that level of the cut: undecided
    shade_max_grey_region: int = 6         # squares: a foreign board's grey region this wide may be paper in shade
    blend_radius: float = 0.16             # unknown pixels this close to two colours (square sides) are blends
    adapt_iterations: int = 2              # re-estimate colour means from the board itself
    adapt_sure_distance: float = 2.0       # ...from pixels this close to a class only (a hand is not paper)
    wb_percentile: float = 90.0            # paper brightness percentile used for white balance
    foreign_wb_percentile: float = 30.0    # board without margin: white balance on its brightest neutral pixels
    foreign_wb_max_spread: float = 0.25    # ...neutral: channel spread below this share of the brightest channel,
                                           # once the board's lightest 1 % are grey (the photo's cast)
    foreign_wb_min_brightness: float = 0.5 # ...and at least this share of the brightest (black ink is no paper)
    default_sigma_lab: float = 8.0         # spread of a colour before it is learnt


@dataclass(frozen=True)
class SymbolConfig:
    """Start / Temple glyphs and obstacle hatching on our printed boards (MT 2.03, 2.04)."""

    glyph_min_score: float = 0.45          # correlation with render_board's own glyph to accept it
    glyph_sure_score: float = 0.50         # below this an accepted glyph is flagged uncertain (clear evidence above: no error seen)
    glyph_min_evidence: float = 0.25       # start-vs-Temple evidence (1 = clean print) below: uncertain
    glyph_min_contrast: float = 0.15       # a glyph's inside varies at least this share of the printed glyph's (photos
                                           # 0.21–0.7); a page's cut edge or a crease across a plain square correlates
                                           # with a glyph's blade at ≤ 0.11 of it
    hatch_min_score: float = 0.43          # spectrum correlation with render_board's hatch to call it hatched
    hatch_doubt: float = 0.05              # ...within this of the threshold: doubtful (unless grey anyway)
    hatch_faint_score: float = 0.22        # a plain (unmarked) square above this shows a faint hatch: doubtful
    hatch_kind_doubt: float = 0.04         # colourless vs coloured hatch correlations this close: doubtful
    hatch_min_chroma: float = 18.0         # on a hatched square, pixels at least this colourful give the hue
    hatch_hue_cover: float = 0.12          # a hue must cover this much of a hatched square to count
    hatch_hue_doubt: float = 0.04
    hatch_lightness_doubt: float = 15.0    # hatched W/B told apart by gray level: doubtful this close
    hatch_visible_px: float = 40.0         # photo px per square from which an obstacle's hatch always shows
    hatch_texture_px: float = 30.0         # ...from which it leaves more texture than the paper's noise
    paper_noise_factor: float = 1.5        # a square under factor × paper noise + offset (gray std) is as flat as paper
    paper_noise_offset: float = 1.0
    hatch_texture_share: float = 0.35      # a grey square under this share of the photo's colourless hatch texture: paper
    hatch_reference_reach: float = 0.75    # ...judged on squares down to this share of the smallest reference's size
    min_hatch_reference: int = 3           # recognised colourless hatches (of about the size) that set that texture
    min_colourless_reference: int = 2      # colourless hatches that set this photo's hatch levels
    min_structure: float = 3.5             # gray std of a square's inside below this: no mark at all (plain ≈ 1–3, a hatch seen small ≈ 4–6)


@dataclass(frozen=True)
class LensConfig:
    """When a photo's bending is worth a lens, and how it is fitted."""

    min_gain: float = 0.1           # the lens must cut the residual RMS by this share ...
    min_shift_px: float = 0.75      # ... and move some grid point by at least this much (px)
    min_points: int = 12            # fewer correspondences (or line points) than this: no lens
    fit_k2: bool = True             # also k2 (kept only when it cuts the RMS by `k2_gain` more)
    k2_gain: float = 0.1
    k2_ridge: float = 0.02          # weight (in px per unit of k2 per point, squared) pulling k2 to 0
    huber_px: float = 1.5           # residuals beyond this count linearly (a stray point weighs less)
    max_line_points: int = 1500     # line points fitted at most (every k-th beyond: the fit's time)
    max_k1: float = 2.0             # |k1| above this is no lens we know (a GoPro: 1.0–1.3)
    monotonic_margin: float = 1.0   # the lens must keep radii in order over the grid grown by this (squares)
    iterations: int = 20


@dataclass(frozen=True)
class ChequerConfig:
    """Thresholds of the chequer candidate."""

    min_square_px: float = 12.0       # SB runs on a copy reduced until squares would be this small ...
    board_fraction: float = 0.5       # ... for a board spanning this share of the photo's short side
    small_board_fraction: float = 0.25   # size given and none found: again for a board spanning this share ...
    small_board_pixels: int = 500_000  # ... when that copy holds at most this many pixels (SB's cost grows with them)
    classic_first: bool = True        # size given: OpenCV's classic (quad) finder before SB (1-20 ms where SB takes
                                      # 10-60), its lattice kept unless bent past ...
    max_classic_bend: float = 0.4     # ... this (squares: a corner on the wrong saddle; SB's lattices: <= 0.24, one 0.48)
    classic_copies: tuple = (1.0, 2.0)   # ... on SB's copy, then on one this many times larger (it needs larger squares)
    sb_margin_px: int = 16            # SB's copy framed in this much mid-grey: a board running to the frame's edge
                                      # has its outer corners too near it for SB's sectors on a reduced copy
    unknown_long_side: int = 800      # size unknown: SB on a copy with this long side (at most)
    min_corners: int = 3              # smallest chequer (inner corners per side) looked for
    larger_starts: tuple = ((5, 1), (3, 1))   # SB "larger" tries (start pattern side, random seed): the size
                                              # unknown tries both, a size given (SB at that size failed) the first
    min_saddle: float = 15.0          # grey levels: SB's corners must show at least this median step ...
    min_parity: float = 0.9           # ... with this share of them in the chequer's alternation
    saddle_share: float = 0.35        # a corner's weakest quadrant step, against the median of SB's corners
    side_range: tuple[float, float] = (0.5, 2.0)  # a grown corner's square side, against SB's median (no runaway)
    max_shift: float = 0.25           # ... and how far (squares) refinement may move it from its prediction
    fill_share: float = 0.85          # a corner rectangle must hold this share of its corners (a hand hides some) ...
    max_cut_share: float = 0.5        # ... and a row dropped for that, under this share (more: the chequer goes on)
    min_outline_step: float = 15.0    # grey levels: an outline point is measured where one quadrant, inside the
                                      # board, is this much darker than its three others (a dark square's corner)
    max_ring_disagreement: float = 0.4   # the mapping's outline this far (squares) from where it is measured, or
                                         # else from the inner corners' local extrapolation of it: the lens model
                                         # does not follow the board, no chequer


@dataclass(frozen=True)
class GridVerifyConfig:
    """Thresholds of the verification (tuned on the negative set's dev split and on every real and
    synthetic board the finder's tests and benches use; never on its held-out split)."""
    samples_per_edge: int = 5          # points read along each edge (one side of one square)
    reach: float = 0.06                # the line is searched within ±reach square of the fit (a fit is
                                       # good to ~0.05 square; a line is ~0.02-0.1 square wide)
    probe: float = 0.08                # contrast across the line: Lab difference at ±probe square ...
    min_line_ratio: float = 1.1        # median contrast on the lines ≥ this × on the squares' middles
    seen_factor: float = 2.0           # an edge is seen when its contrast ≥ this × the middles' median ...
    min_seen_share: float = 0.25       # ... and at least this share of the edges in the photo are seen
    min_contrast: float = 4.0          # Lab units: an edge below this is never seen (a blank wall's middles show ~0)
    chequer_line_share: float = 0.5    # a chequer's lines seen going on past a side: each edge there at least this
                                       # share of the grid's own median line contrast (colour steps between squares
                                       # past it, not a grained table's streaks: a synthetic 3×3 on wood read 1.0 at
                                       # the plain level)
    max_long_side: int = 1600          # px: larger photos are read on a copy reduced to this
    ruled_seen_share: float = 0.7      # seen on fewer edges (a board without lines inside: its colour borders
    max_plain_middle: float = 4.0      # only), the squares' middles must be plain: median contrast ≤ this (Lab)
    min_ink_seen_share: float = 0.5    # seen on fewer than `ruled_seen_share` but at least this share of its edges,
    min_ink_share: float = 0.5         # ... this share of those seen ink lines between alike squares (`_ink_share`)
    ink_probe: float = 0.25            # ... read this far (square) each side of the line: a ruled grid all the same
    max_family_gap: float = 0.25       # the two families' seen shares may differ by at most this (a facade's
                                       # panel joints run the whole height, its window rows show half the width)
    max_blind_seen: float = 0.1        # a line seen on at most this share of its edges is blind ...
    max_blind_lines: float = 0.35      # ... and this share of a family's inner lines blind refuses the fit: a lattice
                                       # at a finer period than the grid's (issue 28: seeds 2029 0.47, 2054 0.73;
                                       # the dev seeds' true grids ≤ 0.21)
    min_alternate_absent: float = 0.1  # every other inner line absent (its contrast no more than the middles') along
                                       # at least this share of it more than any line between refuses the fit: a
                                       # lattice at half the grid's period through the marks filling its squares
                                       # (a blind completed sudoku in handwriting read 18×9: 0.18; the 314 fits found
                                       # on the labelled sets and blind looks 11–15: 0)
    interior_samples: int = 9          # a square's inside read on this many squared points ...
    interior_margin: float = 0.2       # ... spread over it this share of a square away from its edges (a thick
                                       # ruling on 17 px squares darkens 0.2 square inside them);
    interior_rings: int = 2            # the outer rings of them (0.23-0.30 square inside the edges) are its band
    plain_quantile: float = 0.75       # a square is plain when this share of its band's points are within
    max_square_spread: float = 8.0     # this Lab distance (summed over channels) of their median colour, plus
                                       # the photo's colour noise (`_colour_noise`) where it has some:
    noise_patch_px: int = 32           # the photo read in patches of this size (px, at `max_long_side`) ...
    noise_min_patches: int = 256       # ... at least this many (a smaller photo: no allowance; at 240 px a patch
                                       # spans a seventh of it, and a sky's hue gradient read as noise) ...
    noise_quantile: float = 0.1        # ... the flattest this share of them: how far their colour (a, b) varies
    max_colour_over_light: float = 2.0  # beyond how far their lightness does, less this, is the sensor's and JPEG's
                                       # colour noise a plain square shows too (a dim phone photo of a printed
                                       # grid: 3.7-4.6; the labelled photos and the negatives: at most 1.4, a
                                       # scene's texture varies its lightness as much as its colour)
    min_plain_share: float = 0.35      # at least this share of the squares in the photo are plain (labelled
                                       # real grids and broadened foreign boards 0.51-1: markers fill half the
                                       # charuco's squares; lattices on dev facades that passed every other
                                       # check 0-0.18, a curtain wall of plain panels ~0.6, not refused)
    min_plain_share_chequer: float = 0.15  # ... and of a chequer (`min_chequer_step`), this share: a chess game's
                                       # pieces stand on up to half its squares and, seen at an angle, overhang the
                                       # band of the squares behind them (games in progress 0.17-0.27); a lattice's
                                       # cells over a facade do not alternate dark and light side by side
    min_plain_share_unlined: float = 0.6   # ... and of a board without lines inside (seen on fewer than
                                       # `ruled_seen_share` of its edges), this share: its colour borders are all
                                       # that shows its grid, its squares are plain but where a piece overlaps their
                                       # band (synthetic unlined boards 0.83-0.91; a lattice over a car's
                                       # touchscreen, blind negatives of 4 Dec 2026: 0.44)
    min_outer_seen: float = 0.8        # a ruled grid's every outer row and column: this share of its separators seen
                                       # (issue 28: a strip of text taken in beside a sudoku 0.50-0.62; real grids,
                                       # synthetic ruled and chequered ones 1.0)
    min_line_sample_lead: float = 0.3  # a strip's separators, where some are seen, lead its middles: the middles are
                                       # seen on at most (1 - this) of the share of samples the separators are, or
                                       # the grid's lines cross it not at all: print reads as lines wherever the
                                       # lattice lays them, and as much between them (rows of print taken in beside a
                                       # sudoku 0.77-1.17, blind and synthetic; the outer strips of the ruled grids
                                       # found ≤ 0.51); and the grid goes on past a side only where the strip leads so
    max_uncrossed_outer: float = 0.25  # a ruled grid shifted a square: an outer strip crossed by at most this share
    min_beyond_seen: float = 0.5       # of its lines (paper), the grid going on past the opposite side: at least
                                       # this share of its lines across the strip there and of the strip's far
                                       # side seen (issue 28: a sudoku a column off 0.75; real grids' outer
                                       # strips 0.9-1 crossed). A chequer's outer strip in the photo crossed by
                                       # at most max_uncrossed_outer is blank: the margin taken in (chequers
                                       # found on every real set >= 0.83; a blind one's margin taken in: 0), and
                                       # so is an inner one (`blank_inner_strip`: chequers found on grids-public
                                       # >= 0.86; a chess mat's lettered margin inside a fit 10x8, 0.14)
    max_crossed_blank_ruled: float = 0.125   # a ruled grid's outer strip in the photo crossed by at most this
                                       # share of its lines is blank: the margin taken in (a word of the margin may
                                       # lie across one line of eight; ruled grids found on every real set >= 0.65;
                                       # a blind sudoku a row off onto its margin 0, one on a page rolled round a
                                       # tube 0.25 in the row the fit follows least); and an inner strip so blank
                                       # is the paper between two grids taken as one (`blank_inner_strip`; the
                                       # least crossed inner strip of ruled grids found on grids-public >= 0.75, on
                                       # the vision bench >= 0.45; two blind sudokus a row apart 0.125)
    min_beyond_seen_unruled: float = 0.9   # ... on a grid whose lines are not seen on every edge (coloured
                                       # squares: a border only between two colours) its outer strips may be
                                       # little crossed by nature: the grid going on must be plain (issue 28: a
                                       # foreign board a column off onto its shaded margin, 0 crossed, 1.0 beyond)
    min_crossed_across: float = 0.5    # two opposite outer strips crossed by at most max_uncrossed_outer while the
                                       # other two are crossed by at least this share: the fit takes in the margin
                                       # on both sides (issue 28: a lattice at the wrong period over a ruled sheet,
                                       # 0 / 0 against 0.64 / 0.73)
    min_going_on: float = 0.9          # the grid seen going on past a side (its lines across the strip there and
                                       # the strip's far side) while the fit's opposite side is out of the photo: a
                                       # fit run off the frame (issue 28: a tiled board fitted 7 rows off, 1.0);
                                       # and a ruled grid's lines going on past a side in the photo: a fit rows
                                       # off or a piece of a larger grid (blind sudoku and Go photos 0.94-1.0;
                                       # labelled ruled grids at most 0.67); and, size unknown, its lines across
                                       # the part in view of a row the frame cuts: partial there (a woven mesh
                                       # 1.0; the labelled real grids' cut strips ≤ 0.5)
    max_crossed_going_on: float = 0.5  # ... or, a ruled grid, while its opposite outer strip is crossed by at most
                                       # this share of its lines: a fit rows off, over the table (issue 28: a tiled
                                       # board 3-5 rows off, its far rows on a carpet whose grain crossed 0.09-0.36)
    min_chequer_step: float = 40.0     # squares side by side this far apart in lightness (Lab L, 0-255) are a
                                       # chequer: its border is a colour step, not judged by the next line
    min_border_ratio: float = 1.0      # a ruled grid's border line, where weaker than its lines, stands out ≥ this
                                       # × from the strip a quarter square inside it, where that strip is busy
                                       # (issue 28: text columns taken in 0.5-0.8; labelled dev sudokus ≥ 2.6,
                                       # a synthetic drawn grid 1.45)
    border_reach: float = 0.12         # squares: the border line is looked for this far either side of the fit
                                       # (a curled page's last line bends off straight lines by a tenth of one)
    min_chequer_lines_going_on: float = 0.75   # a chequer's strong lines going on past a side in the photo on this
                                       # share of that side (`strong_beyond`): a piece of a larger chequer (pieces
                                       # of chess games' boards asked as 7×7 or 8×7: 1.0, and 0.875 where a piece
                                       # hid one line of eight; every chequer found of the labelled sets,
                                       # grids-public, the blind looks and the vision bench: at most 0.11)
    min_chequer_seen_going_on: float = 0.25   # size unknown, a chequer seen going on past a side in the photo at
                                       # the plain level (`beyond_strips` ≥ min_going_on) with this share of those
                                       # lines as strong as its own (`strong_beyond`) is grown that way (a blind
                                       # colour chart's last column, black and grey patches on its black card: 1.0
                                       # and 0.40; past every chessboard's end of the labelled sets, grids-public
                                       # and the blind looks at most 0.89 and 0.11); so is one where the frame cuts
                                       # the strip (`cut_strips`, `strong_cut`: a chess game cropped through its
                                       # back ranks, 1.0 and 0.43; a cutting mat's ruler past a board, 1.0 and 0)
    max_chequer_beyond: float = 0.5    # a chequer whose outer squares' neighbours past two of its sides go on with
                                       # it on this share or more, of its light outer squares and of its dark ones
                                       # alike, is a piece of a larger chequer (the labelled and blind chessboards
                                       # 0; pieces of larger chequers 0.62-1.0, `_chequer_beyond`)
    min_focal: float = 0.3             # the widest camera a photo is taken with: focal length ÷ the photo's diagonal
                                       # (a phone's 13 mm-equivalent lens)
    max_square_skew: float = 0.22      # cells brought back to their plane at most this far from squares (|log aspect|
                                       # or |cos angle|; issue 28, true squares: grids-public dev ≤ 0.170 (sudokus
                                       # stretched to 640×480), shared real photos ≤ 0.071, 3 000 grid_synth camera
                                       # poses ≤ 0.024; curtain walls read as 9×9 / 10×7 0.244-0.273)


@dataclass(frozen=True)
class GridSegmentsConfig:
    """Stage 1, segments: the working image (its scale, its contrast normalisation) and the line
    segments found on it, each weighed by its sharpness in the plain photo."""
    working_size: int = 1000             # long side (px) of the image the finder works on ...
    min_square_px: float = 20.0          # ... or more when a requested grid would otherwise have squares
    min_board_fraction: float = 0.45     #     smaller than this while spanning this share of the short side
    max_working_size: int = 2000         # (never more than this, nor than the photo itself)
    min_segment_squares: float = 0.6     # shortest segment kept is also at most this many such squares
    clahe_clip: float = 3.0              # local contrast normalisation, for faint drawn grids
    min_segment_frac: float = 0.012      # shortest segment kept, fraction of the working long side
    sharp_edge_contrast: float = 8.0     # grey levels/px across a segment (plain photo) for full weight
    min_colour_range: int = 8            # a photo whose CIELAB a*, b* span less than this has no colour edges to read


@dataclass(frozen=True)
class GridFamiliesConfig:
    """Stage 2, line families and vanishing points: the strongest directions of crossed segments,
    a vanishing point for each, and each family kept where the other one is."""
    family_separation_deg: float = 12.0  # candidate directions (histogram peaks) at least this far apart
    direction_candidates: int = 4        # strongest line directions considered
    min_pair_angle_deg: float = 25.0     # two directions closer than this are not a grid's two families
    uncrossed_weight: float = 0.1        # weight, in the direction histogram, of segments that segments of
    crossing_share: float = 0.15         # another direction do not cross (their weight around is under this
                                         # share of their own direction's: a grained table beside the board)
    family_tolerance_deg: float = 20.0   # first assignment of a segment to a direction
    vp_tolerance_deg: float = 1.5        # segment agrees with a vanishing point within this angle
    min_family_segments: int = 6
    cross_family_gap: float = 0.2        # a segment counts only where the other family is: its segments, gaps
    cross_family_reach: float = 0.03     # up to this share of the long side closed, widened by this share
                                         # (wood grain beside a board is not a grid line)


@dataclass(frozen=True)
class GridLatticeConfig:
    """Stage 3, lattice fit (through the lens): the comb fitted to each family after rectification,
    its refinement on the segments, and the lattice followed where its lines bend; with the size given,
    the other lattices tried when that size is not seen (half period, outline, grown from the middle)."""
    skew_ratio: float = 0.85             # a lattice whose cell diagonal is under this share of its longer side is a
                                         # grid's corners on a skewed basis (one family diagonals): searched last
    long_line_ratio: float = 3.0         # issue 28: the strongest pair's lattice again on its segments this many times
                                         # its family's median length (a grid's ruled lines, not the text beside it)
    long_line_segments: int = 8          # ... when each family keeps at least this many
    min_periodicity: float = 0.5         # share of lattice lines present between the outer ones, each axis
    comb_tolerance: float = 0.15         # a line within this many periods of a comb tooth is on it
    lattice_tolerance: float = 0.2       # segment on a lattice line within this many squares
    half_period_min_support: float = 0.2 # size given, not found: lines supported this much (median), alternating
    half_period_ratio: float = 0.5       # with lines under this share of it (medians), are a comb on half the period
    outline_candidates: int = 12         # size given, no lattice of that size: the outline is two of a family's
    outline_line_separation: float = 0.2 # this many strongest lines (this far apart, in lattice units) whose
    outline_min_excess: float = 0.05     # period puts this share of the weight between them on lines beyond chance
                                         # (12, issue 28: a 9×9's ten lines and two more; with 8 a sudoku's border
                                         # ruled as thin as its lines was left out, the outline taken 3 rows apart)
    outline_pairs: int = 2               # the best pairs of lines per family and size ...
    outline_tries: int = 4               # ... combined, best first: this many outlines tried at most
    fit_lens: bool = True                # follow the lines where they bend, with a lens (calibration.lens)
    line_smooth_tolerance: float = 0.04  # ... on the points (squares) of a smooth curve along each line
    lens_reach: float = 0.2              # size given, not seen on the straight lattice: edges up to this many
                                         # squares off it (a strong lens's bending) place the part to follow,
    lens_step: float = 0.08              # ... looked for on parallels this far apart (each edge is searched
                                         # within ±0.05 square of its own)
    grow_start: int = 8                  # size given, not seen otherwise: the lattice refitted from a window of this
    grow_factor: float = 1.6             # many squares at its middle, widened this many times each round, on the
    grow_tolerance: float = 0.15         # line points within this many squares of where the last fit puts them,
    grow_min_seen: float = 0.15          # seen on this share of the window's reads (every quarter square) at least


@dataclass(frozen=True)
class GridExtentConfig:
    """Stage 4, extent: which lattice edges the photo supports, and the rectangle of them that is
    the board (its borders, its separators, the whole grid or none when the size is unknown)."""
    min_edge_contrast: float = 3.0       # grey levels per px (after CLAHE); weaker edges never count as lines
    min_plain_contrast: float = 1.8      # ... nor edges weaker than this in the photo itself (before CLAHE)
    relative_edge_contrast: float = 0.12 # ... nor edges weaker than this share of the strong ones
    empty_edge_cost: float = 0.5         # cost of an unsupported edge inside the grid (a supported one gains 1 - this)
    min_border_support: float = 0.3      # share of supported edges on each border line (a chequer's
                                         # white squares on white paper show no border: 1/3 on a 3x3)
    min_separator_support: float = 0.5   # share of supported separators across each outer row/column
    border_reach: float = 0.12           # size given, no rectangle's borders supported: a border line's edge is
                                         # looked for up to this many squares inside it (tiles' outer edges lie
                                         # half a paper gap, up to 0.09 square, inside the board's outline)
    border_step: float = 0.04            # ... on parallels this far apart (an edge is searched within ±0.05)
    subdivision_strong: float = 0.75     # lines supported this much, alternating with lines ...
    subdivision_weak: float = 0.5        # ... supported less than this: the weak ones subdivide squares
    min_known_edges: int = 12            # fewer measurable edges than this: no grid
    continuation_support: float = 0.4    # size unknown: the grid goes on past a border when the next line
                                         # and the separators across the strip are both supported this much;
    maybe_continuing_support: float = 0.2  # ... and it may go on (the answer is partial there) past a border where
                                         # they are both supported this much (a margin shows no separators)
    max_growth_rounds: int = 3           # ... its extent is searched again this many times, then refused
    max_finer_comb: int = 5              # size unknown: squares holding lines at 1/2 .. 1/this of a square are
                                         # groups of the true squares (a too coarse comb): no board ...
    finer_comb_support: float = 0.5      # ... when that share of their edges is supported ...
    finer_comb_window: int = 6           # ... in the middle 6x6 squares (time)
    outline_support: float = 0.8         # size given, few inside edges seen (no lines inside): a rectangle whose
    outline_inside: float = 0.1          # border lines are this supported, with this share of inside edges


@dataclass(frozen=True)
class GridResultConfig:
    """Stage 6, result: the rectangle's squares must look like printed squares."""
    min_square_side_px: float = 4.0      # a square seen smaller than this (working image) is no square ...
    min_square_aspect: float = 0.25      # ... nor one whose short side is under this share of its long side


@dataclass(frozen=True)
class GridFinderConfig:
    """Thresholds of the markerless finder (calibration.grid_finder), one section per stage: segments,
    families, lattice, extent, result, and the chequer candidate, the lens and the verification. Defaults
    are tuned on the real photos and the synthetic set. The settings here are the search's own (the
    sizes searched, the confidence floor, when to stop trying hypotheses, the chequer candidate)."""
    max_hypotheses: int = 4              # pairs of directions searched for a grid, most lattice lines first
    max_squares: int = 40                # largest grid side searched for
    min_squares: int = 3                 # smallest grid side accepted when the size is unknown
    min_score: float = 0.6               # below this confidence: no grid
    chequer_edge_support: float = 0.8    # size unknown: share of a chequer fit's inner edges that must show
                                         # (a lattice on the squares' diagonals shows half of them)
    good_enough_score: float = 0.9       # stop trying direction pairs once a grid scores this
    fallback_square_samples: int = 6000  # size given, no grid scoring good_enough_score on the hypotheses' own
                                         # lattices: the other lattices (half or double period, outline, lens,
                                         # grown) are tried until they have scored this many edge samples per
                                         # square asked (a work budget: counted, not timed; past it, the best
                                         # grid so far or "not found")
    recheck_square_px: float = 16.0      # size unknown: a fit with squares smaller than this (working image) ...
    recheck_min_squares: int = 25        # ... and at least this many on its long side (a period error adds up
                                         # over the squares) is searched again where its size would put its
                                         # squares at segments.min_square_px (a 40x25 at 1080p: the full frame)
    chequer_candidate: bool = True       # chequers (no ink lines): OpenCV's findChessboardCornersSB first
    segments: GridSegmentsConfig = GridSegmentsConfig()
    families: GridFamiliesConfig = GridFamiliesConfig()
    lattice: GridLatticeConfig = GridLatticeConfig()
    extent: GridExtentConfig = GridExtentConfig()
    result: GridResultConfig = GridResultConfig()
    chequer: ChequerConfig = ChequerConfig()
    lens: LensConfig = LensConfig()
    verify: GridVerifyConfig = GridVerifyConfig()   # found only when proved (calibration.grid_verify)


@dataclass(frozen=True)
class TokenConfig:
    """Tunable tolerances of `detect_tokens`; defaults measured on the synthetic bench."""

    size_tolerance: float = 0.35        # marker side in grid units may differ this much (relative)
    shape_tolerance: float = 0.25       # max relative difference between the marker's sides/diagonals
    min_colour_agreement: float = 0.6   # share of colour samples that must name the decoded player
    max_colour_distance: float = 45.0   # Lab ΔE above which a sample names no player at all
    upsample_below_px: float = 3.0      # search a 2× enlarged image when a marker cell is smaller
    upsample_region_below_px: float = 5.0  # the same for a few squares re-read (cheap to enlarge)
    region_squares: int = 30            # up to this many squares, a read counts as a few squares
    margin_squares: float = 0.3         # extra search border around the grid, in squares
    read_pictures: bool = True          # second reader for tokens whose code is too small to decode
    reliable_cell_px: float = 2.5       # marker cell (px) from which tokens are read ≥ 99.5 % (token bench)
    picture_below_px: float = 4.0       # ... used where a marker cell is smaller than this (px)
    picture_check_below_px: float = 3.0  # a code read where cells are smaller must match its picture
    code_search_from_px: float = 2.5    # smaller cells: codes searched only where the picture reader read nothing
    picture_search: float = 0.35        # how far from a square's centre its token may sit, in squares
    picture_min_contrast: float = 10.0  # grey spread under which a lit square is plain (no token) ...
    picture_lit_level: float = 200.0    # ... lit: its brightest grey level this or more; dimmer, the
    picture_min_light: float = 0.25     # spread asked for falls with it, down to this share
    picture_min_pose: float = 0.50      # average-token match under which a square holds no token (read ones: ≥ 0.59)
    picture_pose_hypotheses: int = 2    # places tried per square: the average token's best fits ...
    picture_pose_apart: float = 0.15    # ... this far apart (squares); the best decoded one is kept
    picture_min_first: float = 0.40     # first look's best token under which no variant is tried (read: ≥ 0.48)
    picture_candidates: int = 24        # printed tokens compared in every pose variant (best of a first look)
    picture_min_score: float = 0.78     # correlation the best printed token must reach ...
    picture_min_margin: float = 0.02    # ... and by how much it must beat every other token
    picture_sure_score: float = 0.88    # from this score, half the margin will do (wrong reads seen: ≤ 0.85)
    picture_min_part: float = 0.6       # every quarter of the picture must match this well (partly hidden)
    picture_colour_slack: float = 20.0  # ΔE by which another player's colour may fit better
    max_code_parts: int = 40            # given the squares to examine: searched for codes group by group ...
    max_code_share: float = 0.35        # ... unless more groups than this, or their boxes cover more of the board


@dataclass(frozen=True)
class TrackingConfig:
    """Following a still camera's frames (`vision.tracking`, `vision.watch`): a token put down told
    from a hand passing, when a token has moved or left, when the board has moved. Defaults measured
    on the synthetic videos."""

    px_per_square: int = 12         # the small rectified view of the grid compared frame to frame
    change_level: float = 14.0      # mean grey difference (0–255) from which a square has changed
    hand_squares: int = 4           # a changed patch this large is a hand (and arm), not a token
    global_change: float = 0.6      # more of the grid changed than this: camera or light moved, read all
    settle_frames: int = 12         # a large patch unchanged this many frames is read (a hand at rest
    #                                 keeps the tokens under it that long; a hand seen at registration
    #                                 that left is read then)
    confirm_frames: int = 2         # frames a token must be seen on a new square before it has moved
    vanish_frames: int = 8          # frames a token may go unseen on a visible square before it has left
    same_pose_px: float = 3.0       # a re-registration this close (grid corners, px) is the same pose


@dataclass(frozen=True)
class VisionConfig:
    """Every stage's section. The grid finder's stages are its section's own (`grid.segments`,
    `grid.families`, `grid.lattice`, `grid.extent`, `grid.result`), except three shared with other
    stages, which are sections of their own here (`chequer`, `lens`, `verify`), joined by `grid_finder()`."""
    registration: RegistrationConfig = field(default_factory=RegistrationConfig)
    colour: ColourConfig = field(default_factory=ColourConfig)
    symbols: SymbolConfig = field(default_factory=SymbolConfig)
    grid: GridFinderConfig = field(default_factory=GridFinderConfig)
    chequer: ChequerConfig = field(default_factory=ChequerConfig)
    lens: LensConfig = field(default_factory=LensConfig)
    verify: GridVerifyConfig = field(default_factory=GridVerifyConfig)
    tokens: TokenConfig = field(default_factory=TokenConfig)
    tracking: TrackingConfig = field(default_factory=TrackingConfig)

    def grid_finder(self) -> GridFinderConfig:
        """The markerless finder's configuration with its chequer, lens and verification stages."""
        return replace(self.grid, chequer=self.chequer, lens=self.lens, verify=self.verify)

    @classmethod
    def from_dict(cls, data, *, source: str = "config") -> "VisionConfig":
        """A configuration from a mapping of sections (or a read document); errors name the field."""
        document = data if isinstance(data, YamlDocument) else plain_document(data, path=source, error=_error)
        if document.data is None:
            return cls()
        if not isinstance(document.data, dict):
            raise document.fail(f"expected a mapping of sections, got {type(document.data).__name__}")
        config = cls()
        for name, values in _schema(cls).check(document.data, document).items():
            config = replace(config, **{name: _set(getattr(config, name), values, document, (name,))})
        return config

    @classmethod
    def load(cls, path: Path) -> "VisionConfig":
        """Read a YAML file with sections registration, colour, symbols, grid, chequer, lens, verify, tokens,
        tracking (bounded reader, safe constructor only)."""
        return cls.from_dict(read_yaml_file(path, limits=Limits(max_bytes=256 << 10, max_depth=4), error=_error))


_error = file_error(ConfigError)


def _kind(name: str, default) -> Kind:
    """The check of one field, from its default's type and its RANGES entry (every number has one)."""
    if isinstance(default, bool):
        return Flag()
    if isinstance(default, (int, float)) and name not in RANGES:
        raise TypeError(f"config field {name}: a number without a range in RANGES")
    if isinstance(default, int):
        return Whole(*RANGES[name])
    if isinstance(default, float):
        return Number(*RANGES[name])
    if isinstance(default, str):
        return Text(200)
    raise TypeError(f"config field {name}: no check for {type(default).__name__} values")


def _settable(value) -> bool:
    """Numbers, flags and texts are set from YAML; a stage nested in another (its own section)
    and tuples (a list of tries, a range) are not."""
    return isinstance(value, (bool, int, float, str))


def _stages(section) -> dict[str, object]:
    """The stages nested in a section that are set inside it, by name (the grid finder's `grid.segments`,
    `grid.families`, ...); a nested stage that is a section of its own (`chequer`, `lens`, `verify`,
    joined by `VisionConfig.grid_finder`) is not one."""
    own_sections = {f.name for f in fields(VisionConfig)}
    return {f.name: getattr(section, f.name) for f in fields(section)
            if is_dataclass(getattr(section, f.name)) and f.name not in own_sections}


def _record(section, name: str) -> Record:
    """The checks of one section: its own fields, a mapping for each of its stages and, so that a file
    written before the grid finder's settings were grouped by stage (#28) still reads, each stage's fields
    at the section's level too (`grid.min_segment_frac` for `grid.segments.min_segment_frac`)."""
    checks: dict[str, Kind] = {f.name: _kind(f.name, getattr(section, f.name)) for f in fields(section)
                               if _settable(getattr(section, f.name))}
    stages = _stages(section)
    checks.update({stage: _record(nested, f"{name}.{stage}") for stage, nested in stages.items()})
    for nested in stages.values():
        checks.update({key: kind for key, kind in _record(nested, name).fields.items() if key not in checks})
    return Record(checks, say=f"a mapping of {name} settings")


def _set(section, values: dict, document: YamlDocument, at: tuple[str, ...]):
    """The section with the checked `values` set: its own fields, its stages' mappings, and a stage's
    field given at the section's level (an earlier file, `_record`) set in that stage."""
    stages = _stages(section)
    nested: dict[str, dict] = {stage: dict(values.get(stage, {})) for stage in stages}
    own = {}
    for key, value in values.items():
        if key in stages:
            continue
        if hasattr(section, key):
            own[key] = float(value) if isinstance(getattr(section, key), float) else value
            continue
        stage = next(stage for stage, fields_ in stages.items() if hasattr(fields_, key))
        if key in nested[stage]:
            raise document.fail(f"set twice: here and as {'.'.join((*at, stage, key))}", (*at, key))
        nested[stage][key] = value
    own.update({stage: _set(stages[stage], given, document, (*at, stage)) for stage, given in nested.items() if given})
    return replace(section, **own)


def _schema(config_cls) -> Record:
    """Sections → fields → checks, derived from the dataclasses (a new stage's section is checked too)."""
    sections = {}
    for section in fields(config_cls):
        if not callable(section.default_factory):
            raise TypeError(f"config section {section.name}: needs a default_factory (its default settings)")
        sections[section.name] = _record(section.default_factory(), section.name)
    return Record(sections)


DEFAULT_CONFIG = VisionConfig()
