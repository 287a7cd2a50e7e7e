import os
import random
import secrets
import uuid
from random import choice, randint as roll
from uuid import uuid4 as new_id

__adk_workflow__ = True


def draw(items):
    a = random.random()  # expect: ADK-W002
    b = random.randint(1, 6)  # expect: ADK-W002
    c = choice(items)  # expect: ADK-W002
    d = roll(1, 6)  # expect: ADK-W002
    random.shuffle(items)  # expect: ADK-W002
    e = uuid.uuid4()  # expect: ADK-W002
    f = new_id()  # expect: ADK-W002
    g = uuid.uuid1()  # expect: ADK-W002
    h = secrets.token_hex(8)  # expect: ADK-W002
    i = os.urandom(16)  # expect: ADK-W002
    j = uuid.uuid5(uuid.NAMESPACE_URL, "https://example.com/order/1")
    k = uuid.uuid3(uuid.NAMESPACE_DNS, "example.com")
    return a, b, c, d, e, f, g, h, i, j, k
