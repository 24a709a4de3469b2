"""The app version shown on the page and in /api/health."""

VERSION = "0.1.0"
