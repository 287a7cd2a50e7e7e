import random
import uuid

from replaylint.workflows import DeterministicIds

__adk_workflow__ = True


class Dice:
    def random(self):
        return 4


def run(ids: DeterministicIds, rng, run_id: str):
    key, ids = ids.next("payment")
    dice = Dice()
    a = dice.random()
    b = rng.random()
    c = uuid.UUID("12345678123456781234567812345678")
    d = uuid.uuid5(uuid.NAMESPACE_OID, run_id)
    e = random.Random(run_id).random()
    random = Dice()
    f = random.random()
    return key, a, b, c, d, e, f
