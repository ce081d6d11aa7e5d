"""A recorded video of the demo table for the camera tests (CLI and app): the demo's own camera
(`companion.app.demo.DemoCamera`) scripted to do what a table does — two tokens moved by hand
without telling the app, a hand passing, the board bumped — and the truth of every frame.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

VIDEO_SIZE = (1920, 1080)
VIDEO_FPS = 10.0


@dataclass
class TableVideo:
    path: Path
    frames: int
    moves: list[tuple[tuple[int, int], tuple[int, int], tuple[int, int]]]   # (token, from, to)
    hand_left: list[int]                 # the first hand-free frame after each hand episode
    truth: np.ndarray                    # homography of the last frame (grid units → pixels)
    episodes: list[str] = field(default_factory=list)


def record_table_video(path: Path, moves: list[tuple[tuple[int, int], tuple[int, int]]], *,
                       nudge: tuple[float, float, float] | None = (1.5, 0.4, 2.0), still: int = 8) -> TableVideo:
    """An MJPG video of the demo game's table in which `moves` (token, to) are made by hand, a hand
    then passes, and the board is bumped by `nudge` (squares, squares, degrees)."""
    from companion.app.demo import DemoCamera, demo_board, demo_pieces

    board = demo_board()
    tokens = {(p.player, p.number): p.at for p in demo_pieces(board)}
    camera = DemoCamera(board, [(*t, *at) for t, at in tokens.items()], fps=None, size=VIDEO_SIZE, pass_every=None)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), VIDEO_FPS, VIDEO_SIZE)
    if not writer.isOpened():
        raise RuntimeError(f"cannot write {path}")
    video = TableVideo(path, 0, [], [], np.eye(3))

    def frame() -> None:
        writer.write(camera.read())
        video.frames += 1

    def until_the_hand_has_gone() -> None:
        while camera.busy:
            frame()
        video.hand_left.append(video.frames)   # the next frame is the first without the hand

    for _ in range(still):
        frame()
    for token, to in moves:
        video.moves.append((token, tokens[token], to))
        tokens[token] = to
        camera.show([(*t, *at) for t, at in tokens.items()])
        frame()                                # this frame's read starts the hand's carry
        until_the_hand_has_gone()
        video.episodes.append("move")
        for _ in range(still):
            frame()
    camera.pass_by()
    until_the_hand_has_gone()
    video.episodes.append("pass")
    for _ in range(still):
        frame()
    if nudge is not None:
        camera.nudge(*nudge)
        until_the_hand_has_gone()
        video.episodes.append("nudge")
        for _ in range(still + 4):
            frame()
    writer.release()
    video.truth = camera.camera.homography
    return video


class MjpegServer:
    """A phone's IP camera on 127.0.0.1: frames as an MJPEG stream over HTTP (what apps such as IP
    Webcam serve). `unplug()` drops every connection and refuses new ones until `plug()`."""

    def __init__(self, frames: list[np.ndarray], fps: float = 20.0):
        import threading
        import time
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        jpegs = [cv2.imencode(".jpg", f, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes() for f in frames]
        self.on = on = threading.Event()
        on.set()
        self.served = served = [0]

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                if not on.is_set():
                    self.send_error(503)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
                self.end_headers()
                index = 0
                try:
                    while on.is_set():
                        jpeg = jpegs[index % len(jpegs)]
                        index += 1
                        self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n"
                                         % len(jpeg) + jpeg + b"\r\n")
                        served[0] += 1
                        time.sleep(1 / fps)
                except OSError:
                    pass

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/video.mjpg"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def drop_after(self, frames: int, seconds: float) -> None:
        """Unplug once `frames` frames have been served in all, and plug back `seconds` later."""
        import threading
        import time

        def script():
            while self.served[0] < frames:
                time.sleep(0.02)
            self.unplug()
            time.sleep(seconds)
            self.plug()

        threading.Thread(target=script, daemon=True).start()

    def unplug(self) -> None:
        self.on.clear()

    def plug(self) -> None:
        self.on.set()

    def close(self) -> None:
        self.on.clear()
        self.server.shutdown()
        self.server.server_close()
