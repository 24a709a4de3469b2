"""The evaluation set: questions, expected values computed with plain pandas, and the runner."""
