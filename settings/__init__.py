"""Settings: config.yaml, environment overrides and project paths."""
