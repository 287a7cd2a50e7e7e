import json
import urllib.parse

import requests
from replaylint.workflows import activity

__adk_workflow__ = True


@activity
def fetch_rates(url):
    return requests.get(url).json()


class Cache:
    def get(self, key):
        return None


def run(cache: Cache, payload):
    rates = fetch_rates("https://rates.example.com")
    hit = cache.get("rates")
    body = json.dumps(payload)
    query = urllib.parse.urlencode({"q": "x"})
    return rates, hit, body, query, requests.codes.ok
