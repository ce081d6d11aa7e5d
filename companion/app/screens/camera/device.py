"""The device's own camera through Kivy (Android's camera API on a tablet, where OpenCV has no
capture): each new preview frame is handed to a `calibration.sources.PushSource` that the
camera worker reads like any other source.

On Android, Kivy's `CameraAndroid` keeps the raw NV21 preview buffer (`grab_frame()`, thread
safe): handing it over costs the UI thread a copy, the conversion to BGR happens on the worker.
Other providers only have the texture: its RGBA pixels are read back instead.
"""
from __future__ import annotations

from calibration.sources import PushSource

DEVICE_RESOLUTION = (1920, 1080)   # asked of the device camera (issue 17's figures are at 1080p)


class KivyCamera:
    """Kivy's camera provider feeding a PushSource (create and close on the UI thread)."""

    def __init__(self, index: int = 0, resolution: tuple[int, int] = DEVICE_RESOLUTION):
        from kivy.core.camera import Camera as CoreCamera

        self.source = PushSource(f"camera {index}")
        self.camera = CoreCamera(index=index, resolution=resolution, stopped=True)
        self.camera.bind(on_texture=lambda *_: self._hand_over())
        self.camera.start()

    def _hand_over(self) -> None:
        grab = getattr(self.camera, "grab_frame", None)
        if grab is not None:
            buffer = grab()
            if buffer is not None:
                self.source.push_nv21(buffer, tuple(self.camera._resolution))
            return
        texture = self.camera.texture
        if texture is not None:
            self.source.push_rgba(texture.pixels, tuple(texture.size))

    def close(self) -> None:
        self.camera.stop()
        self.source.close()
