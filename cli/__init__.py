"""The command line: argument parsing, the ask/tool/model commands and their text rendering."""
