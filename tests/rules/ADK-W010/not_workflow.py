"""The same forms in a module that is not workflow code: nothing is reported."""
__adk_workflow__ = False


def run(names):
    for name in set(names):
        print(name, hash(name), id(name))
    return list({"a", "b"})
