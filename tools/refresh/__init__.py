"""The `data refresh` command: paged downloads, layout checks and atomic replacement."""
