import importlib
import sys
import time

__adk_workflow__ = True


def dynamic(name, key, module_name, code):
    a = getattr(time, name)  # expect: ADK-W006
    b = globals()[key]  # expect: ADK-W006
    c = importlib.import_module(module_name)  # expect: ADK-W006
    d = sys.modules[module_name]  # expect: ADK-W006
    e = eval(code)  # expect: ADK-W006
    exec("import time; time.sleep(1)")  # expect: ADK-W006
    f = __import__(module_name)  # expect: ADK-W006
    g = vars(time)[key]  # expect: ADK-W006
    return a, b, c, d, e, f, g
