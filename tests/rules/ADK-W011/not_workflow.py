"""The same writes in a module that is not workflow code: nothing is reported."""
__adk_workflow__ = False

CACHE = {}
counter = 0


def run(key):
    global counter
    counter += 1
    CACHE[key] = counter
