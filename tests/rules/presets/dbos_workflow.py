import random
import time
import uuid

import requests
from dbos import DBOS


@DBOS.step()
def charge(amount: int) -> str:
    response = requests.post("https://pay.example.com", json={"amount": amount})
    return response.json()["id"]


@DBOS.step()
def new_key() -> str:
    return str(uuid.uuid4())


def audit(event):
    return requests.post("https://audit.example.com", json=event)  # expect: ADK-W004


@DBOS.workflow()
def checkout(amount: int) -> dict:
    key = new_key()
    payment = charge(amount)
    DBOS.sleep(5)
    time.sleep(5)  # expect: ADK-W003
    coupon = random.choice(["A", "B"])  # expect: ADK-W002
    audit({"payment": payment})  # expect: ADK-W005
    return {"key": key, "payment": payment, "coupon": coupon}
