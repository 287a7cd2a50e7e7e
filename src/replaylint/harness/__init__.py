"""The replay command's harness: each history replayed in a child process of its own."""
