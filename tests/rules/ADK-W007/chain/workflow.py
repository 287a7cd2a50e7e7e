from settings import endpoint

__adk_workflow__ = True


async def run(order):
    url = endpoint("billing")  # expect: ADK-W005
    return url, order
