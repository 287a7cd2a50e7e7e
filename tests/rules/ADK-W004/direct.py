import http.client
import socket
import urllib.request
from urllib.request import urlopen

import boto3
import httpx
import requests

__adk_workflow__ = True


async def fetch(url):
    a = requests.get(url)  # expect: ADK-W004
    b = requests.post(url, json={})  # expect: ADK-W004
    c = httpx.get(url)  # expect: ADK-W004
    d = urllib.request.urlopen(url)  # expect: ADK-W004
    e = urlopen(url)  # expect: ADK-W004
    s = socket.create_connection(("example.com", 443))  # expect: ADK-W004
    host = socket.gethostname()  # expect: ADK-W007
    conn = http.client.HTTPSConnection("example.com")  # expect: ADK-W004
    with requests.Session() as session:
        f = session.get(url)  # expect: ADK-W004
    async with httpx.AsyncClient() as client:
        g = await client.get(url)  # expect: ADK-W004
    s3 = boto3.client("s3")
    h = s3.put_object(Bucket="b", Key="k", Body=b"")  # expect: ADK-W004
    request = urllib.request.Request(url)
    try:
        pass
    except socket.timeout:
        pass
    return a, b, c, d, e, s, host, conn, f, g, h, request
