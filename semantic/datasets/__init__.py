"""One module per source dataset, each declaring its frame, its dimensions and its measures."""
