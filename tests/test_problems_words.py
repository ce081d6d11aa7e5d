"""Camera and photo problems (`calibration.problems.Problem`): English for the command line and
the scan JSON, said in the table's language by the app."""
import pytest

from calibration.sources import SourceError
from companion.i18n import translate


def _problem_tables():
    from calibration.sources import SOURCE_PROBLEMS
    from companion.app.screens.newgame.scanning import FORM_PROBLEMS
    from vision.scanner import SCAN_PROBLEMS

    return [("camera.sources", SOURCE_PROBLEMS), ("camera.vision", SCAN_PROBLEMS), ("newgame.problems", FORM_PROBLEMS)]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_camera_and_photo_problem_is_said_in_the_shown_language_with_its_fields(lang):
    """A camera that cannot be opened, a photo without a board, a bad grid size: said in the table's
    language (issue 16: "camera 0 not found", "no board found: no markers of ours…" in the French
    app). Every key has its words, with the same fields; English says what the command line says."""
    import string

    for area, wordings in _problem_tables():
        for name, english in wordings.items():
            words = translate(lang, f"{area}.{name}")
            assert not words.startswith("["), f"{lang}: {area}.{name} missing"
            fields = {f for _, f, _, _ in string.Formatter().parse(english) if f}
            assert {f for _, f, _, _ in string.Formatter().parse(words) if f} == fields, name
            if lang == "en":
                assert words == english, name


def test_a_photo_problem_reaches_the_french_app_in_french():
    """The camera's and the scan's problems are English strings for the command line and carry what
    the app needs to say them in French."""
    import numpy as np

    from calibration.problems import say
    from companion.app.screens.newgame.scanning import ScanError, scan_board
    from vision import scan

    french = lambda key, **fields: translate("fr", key, **fields)  # noqa: E731
    blank = scan(np.full((480, 640, 3), 200, np.uint8))
    assert blank.error == "no markers of ours and no grid of squares in the photo"
    assert say(blank.error, french) == "ni nos repères imprimés ni une grille de cases sur la photo"
    import copy
    import pickle

    for kept in (copy.deepcopy(blank.error), pickle.loads(pickle.dumps(blank.error))):
        assert (kept, kept.key, kept.fields) == (blank.error, blank.error.key, blank.error.fields)
    with pytest.raises(ScanError) as missing:
        scan_board("/no/such/board.png")
    assert "no such image file" in str(missing.value)
    assert missing.value.say(french) == "/no/such/board.png : ce fichier image n’existe pas"
    with pytest.raises(ScanError) as size:
        scan_board("/no/such/board.png", "forty by twenty")
    assert size.value.say(french).startswith("taille de grille : attendu LARGEURxHAUTEUR")
    with pytest.raises(SourceError) as camera:
        raise SourceError("camera_not_found", number=3)
    assert say(camera.value.problem, french) == "caméra 3 introuvable" and str(camera.value) == "camera 3 not found"
