"""Geometry and colour between a camera and a printed board: marker registration,
markerless grid finding, white balance, colour profiles, camera sources."""
