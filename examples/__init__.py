"""Examples for replaylint: runnable workflows written with replaylint.workflows."""
