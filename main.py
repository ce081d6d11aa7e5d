"""Android entry point: python-for-android (buildozer) starts `main.py` at the top level."""
from companion.app import run_app

run_app()
