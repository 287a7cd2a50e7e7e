import uuid


def fresh():
    return uuid.uuid4().hex


class Tagger:
    def tag(self, order):
        return {"order": order, "tag": fresh()}
