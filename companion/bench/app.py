"""`tactical bench app`: the app's benchmark lives in companion.app (the only package
allowed to import kivy); this module only routes the dispatcher there."""
import sys

from companion.app.bench import main

if __name__ == "__main__":
    sys.exit(main())
