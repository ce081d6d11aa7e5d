"""`tactical bench camera`: the Camera screen's live loop lives in companion.app (the only package
allowed to import kivy, and the texture upload is part of the loop); this module only routes the
dispatcher there."""
import sys

from companion.app.screens.camera.bench import main

if __name__ == "__main__":
    sys.exit(main())
