"""The project index: records reused across runs, the on-disk cache, and batches over processes."""
