from .flights import pick_flight, quote

__all__ = ["pick_flight", "quote"]
