"""The question analyzer: entities, years, metrics and intent read from a plain-English question."""
