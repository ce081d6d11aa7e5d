"""Platform services the table needs: keep the screen awake during a game, system language.

Android calls go through pyjnius/`android` only when running on Android;
everywhere else they are no-ops, so the desktop demo and tests never need them.
Kivy is not imported here, so the language choice is testable without a window.
"""
from __future__ import annotations

import locale
import os

# What kivy.utils.platform checks too: python-for-android sets these in the app's environment.
ON_ANDROID = "ANDROID_ARGUMENT" in os.environ or "ANDROID_PRIVATE" in os.environ


def keep_screen_awake(awake: bool) -> None:
    """Hold (or release) the screen on while a game is running (Android FLAG_KEEP_SCREEN_ON)."""
    if not ON_ANDROID:
        return  # desktop screens follow the OS power settings; nothing to hold
    from android.runnable import run_on_ui_thread  # type: ignore[import-not-found]
    from jnius import autoclass  # type: ignore[import-not-found]

    activity = autoclass("org.kivy.android.PythonActivity").mActivity
    flag = autoclass("android.view.WindowManager$LayoutParams").FLAG_KEEP_SCREEN_ON

    @run_on_ui_thread
    def apply():
        window = activity.getWindow()
        window.addFlags(flag) if awake else window.clearFlags(flag)

    apply()


def trust_bundled_certificates(environ: dict[str, str] | os._Environ[str] = os.environ) -> None:
    """Point Python's ssl at certifi's CA bundle on Android, where OpenSSL finds none of its own.

    Without it every HTTPS request (the card data update, companion/cards/download.py) fails its
    certificate check on the device only. A bundle the environment already names is kept."""
    if not ON_ANDROID or environ.get("SSL_CERT_FILE"):
        return
    import certifi  # type: ignore[import-not-found]  # buildozer.spec requirements: certifi

    environ["SSL_CERT_FILE"] = certifi.where()


def system_language() -> str:
    """'fr' when the system language is French, else 'en' (players are French-speaking)."""
    if ON_ANDROID:
        from jnius import autoclass  # type: ignore[import-not-found]

        code = str(autoclass("java.util.Locale").getDefault().getLanguage())
    else:
        code = next((os.environ[v] for v in ("LC_ALL", "LC_MESSAGES", "LANG") if os.environ.get(v)), "")
        code = code or (locale.getlocale()[0] or "")
    return "fr" if code.lower().startswith("fr") else "en"
