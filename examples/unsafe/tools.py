"""Tools shared by the agents; this module has no marker, so it is read only for its helpers."""

import httpx

TOOLS = {"refund": "issue a refund", "escalate": "hand over to a person"}


def lookup_customer(email: str) -> dict:
    response = httpx.get("https://crm.example.com/customers", params={"email": email})
    return response.json()
