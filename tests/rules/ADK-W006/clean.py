__adk_workflow__ = True


class Handlers:
    def on_created(self, event):
        return event


def dispatch(handlers: Handlers, event, kind):
    handler = getattr(handlers, f"on_{kind}")
    label = getattr(event, "label", None)
    return handler(event), label


def this_module():
    import sys

    return sys.modules[__name__]
