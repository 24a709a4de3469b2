"""ChiQA data tools: one module per domain, plus the registry, loader and gazetteer."""

TOOL_MODULES = ["tools.homicides", "tools.iucr", "tools.census", "tools.socioeconomic",
                "tools.property_values", "tools.homicide_analysis"]


def register_all(registry) -> None:
    """Register every tool module's tools, in a stable order."""
    import importlib

    for module_name in TOOL_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                continue  # module not written yet
            raise
        module.register(registry)
