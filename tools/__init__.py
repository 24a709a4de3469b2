"""ChiQA data tools: one package per domain, plus the registry, the catalog of tools, data loading and errors."""
