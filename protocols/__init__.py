"""ChiQA in other ecosystems' protocols: OpenAI chat completions, the MCP server, and the compact trace both attach."""
