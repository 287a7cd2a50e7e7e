from registry import register, lookup

__adk_workflow__ = True


def run(name: str) -> str:
    register(name)  # expect: ADK-W005
    return lookup(name)
