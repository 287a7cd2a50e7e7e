import random
from random import Random, SystemRandom

__adk_workflow__ = True

SEEDED = random.Random(1234)


def pick(items, seed: int):
    unseeded = random.Random()  # expect: ADK-W002
    system = SystemRandom()  # expect: ADK-W002
    seeded = Random(42)
    from_input = Random(seed)
    none_seed = random.Random(None)  # expect: ADK-W002
    a = seeded.random()
    b = from_input.choice(items)
    c = SEEDED.randint(1, 10)
    return unseeded, system, a, b, c, none_seed
