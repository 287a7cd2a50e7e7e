import time

__adk_workflow__ = True


def render(secs, parts):
    a = time.localtime()  # expect: ADK-W003
    b = time.localtime(secs)
    c = time.gmtime()  # expect: ADK-W003
    d = time.gmtime(secs)
    e = time.strftime("%Y")  # expect: ADK-W003
    f = time.strftime("%Y", parts)
    g = time.ctime()  # expect: ADK-W003
    h = time.ctime(secs)
    i = time.localtime(None)  # expect: ADK-W003
    return a, b, c, d, e, f, g, h, i
