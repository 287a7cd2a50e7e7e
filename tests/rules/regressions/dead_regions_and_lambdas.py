import time

__adk_workflow__ = True


def with_main_block():
    if __name__ == "__main__":
        time.sleep(1)
    return 1


def defines_a_lambda():
    later = lambda: time.time()  # expect: ADK-W003
    return 1


def returns_a_lambda():
    return lambda: time.monotonic()  # expect: ADK-W003


def run():
    a = with_main_block()
    b = defines_a_lambda()
    reader = returns_a_lambda()
    return a, b, reader()  # expect: ADK-W005
