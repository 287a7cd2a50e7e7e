import requests
from langgraph.types import interrupt


def pick_flight(origin: str, destination: str) -> str:
    flights = requests.get(f"https://flights.example.com/{origin}/{destination}").json()  # expect: ADK-W004
    choice = interrupt({"options": flights[:3]})
    return str(flights[int(choice) - 1])


def quote(flight: str) -> str:
    # Never interrupts: its tool node runs it once.
    return requests.get(f"https://flights.example.com/quote/{flight}").text


def pick_seat(flight: str) -> str:
    seats = requests.get(f"https://flights.example.com/{flight}/seats").json()  # expect: ADK-W004
    return str(interrupt({"seats": seats}))
