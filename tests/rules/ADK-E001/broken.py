__adk_workflow__ = True


def run(:  # expect: ADK-E001
    pass
