"""Security headers, a strict Content-Security-Policy and CSRF protection (Flask-WTF)."""

from __future__ import annotations

from flask import Flask, Response
from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


def add_headers(response: Response) -> Response:
    """Set the security headers on every response, and Vary on HX-Request."""
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Referrer-Policy"] = "same-origin"
    response.headers["Cross-Origin-Opener-Policy"] = "same-origin"
    response.headers["Permissions-Policy"] = "camera=(), microphone=(), geolocation=()"
    response.vary.add("HX-Request")
    return response


def init_app(app: Flask) -> None:
    """Bind CSRF protection and the header hook to the app."""
    csrf.init_app(app)
    app.after_request(add_headers)
