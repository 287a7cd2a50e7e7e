"""Helpers without the marker: never reported themselves, but their callers are."""
import requests

from util.ids import fresh


def _get_json(url):
    return requests.get(url).json()


def fetch_rates(currency):
    return _get_json(f"https://rates.example.com/{currency}")


def make_id(prefix):
    return f"{prefix}-{fresh()}"
