"""The name that stands for every workflow class in the set of classes a worker runs without
its framework's sandbox: a module of its own, so that the registrars' summary can be compared
(engine/registrations.py, in the main process) without importing LibCST with graph/state.py."""

EVERY_CLASS = "*"  # a worker runs workflows unsandboxed, but which ones is not spelled out
