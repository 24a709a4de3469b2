"""Model backends behind one interface; each provider module registers itself by name."""
