"""Token design (boards.tokens): id scheme, rendering, colours (MT 1.03, 9.02.a)."""
import cv2
import numpy as np
import pytest

from boards.markers import ARUCO_DICTIONARY, BOARD_MARKER_IDS
from boards.tokens import (MAX_NUMBER, PLAYER_COLOURS, PLAYER_COUNT, PLAYER_NAMES, colour_separations,
                           render_token, token_from_marker_id, token_marker_id)


def test_every_token_has_its_own_marker_id_above_the_board_markers_MT_1_03():
    ids = {token_marker_id(p, n) for p in range(1, PLAYER_COUNT + 1) for n in range(1, MAX_NUMBER + 1)}
    assert len(ids) == PLAYER_COUNT * MAX_NUMBER
    assert min(ids) == 50 and max(ids) == 249
    assert not ids & set(BOARD_MARKER_IDS)
    for p in range(1, PLAYER_COUNT + 1):
        for n in range(1, MAX_NUMBER + 1):
            assert token_from_marker_id(token_marker_id(p, n)) == (p, n)


@pytest.mark.parametrize("marker_id", [0, 49, 250, -1])
def test_board_marker_ids_are_not_tokens(marker_id):
    assert token_from_marker_id(marker_id) is None


@pytest.mark.parametrize("player, number", [(0, 1), (6, 1), (1, 0), (1, MAX_NUMBER + 1)])
def test_out_of_range_tokens_are_refused_with_a_message(player, number):
    with pytest.raises(ValueError, match="must be"):
        token_marker_id(player, number)


def test_five_player_colours_named_in_french_and_english_MT_9_02_a():
    assert len(PLAYER_COLOURS) == 5
    assert len(PLAYER_NAMES["fr"]) == len(PLAYER_NAMES["en"]) == 5
    assert len(set(PLAYER_NAMES["fr"])) == 5


def test_player_colours_stay_apart_from_each_other_and_from_square_colours():
    """Design floor: ΔE76 ≥ 35 for every pair (a clear difference to the eye), MT 1.03."""
    weakest = colour_separations()[0]
    assert weakest[0] >= 35, weakest


def test_rendered_token_is_transparent_outside_the_disc():
    rgba = render_token(2, 12, 120)
    assert rgba.shape == (120, 120, 4) and rgba.dtype == np.uint8
    assert rgba[0, 0, 3] == 0 and rgba[-1, -1, 3] == 0 and rgba[0, -1, 3] == 0
    assert rgba[60, 60, 3] == 255
    # The colour area beside the marker is the player's colour.
    assert np.abs(rgba[60, 12, :3].astype(int) - PLAYER_COLOURS[1]).max() < 20


@pytest.mark.parametrize("diameter", [60, 90, 300])
@pytest.mark.parametrize("angle", [0, 37, 90, 200])
def test_rendered_marker_decodes_to_player_and_number_at_any_rotation(diameter, angle):
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    for player, number in [(1, 1), (3, 27), (5, 40)]:
        rgba = render_token(player, number, diameter)
        alpha = rgba[..., 3:] / 255.0
        img = (rgba[..., :3] * alpha + 128 * (1 - alpha)).astype(np.uint8)
        img = cv2.copyMakeBorder(img, diameter, diameter, diameter, diameter, cv2.BORDER_CONSTANT, value=(128,) * 3)
        centre = (img.shape[1] / 2, img.shape[0] / 2)
        img = cv2.warpAffine(img, cv2.getRotationMatrix2D(centre, angle, 1.0), img.shape[1::-1],
                             borderValue=(128, 128, 128))
        _, ids, _ = detector.detectMarkers(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
        assert ids is not None and [token_from_marker_id(int(i)) for i in ids.ravel()] == [(player, number)]
