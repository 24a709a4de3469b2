"""Placeholder: the web issue builds the page and API blueprints here."""


def register_web(app) -> None:
    pass
