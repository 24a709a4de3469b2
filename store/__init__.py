"""The run history: stored runs with their traces and feedback, conversations of turns, and statistics."""
