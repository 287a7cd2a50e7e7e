import asyncio
import datetime
import email.utils
import ftplib
import imaplib
import smtplib
import socket
import threading

__adk_workflow__ = True


async def run(host, callback):
    a = smtplib.SMTP(host)  # expect: ADK-W004
    b = ftplib.FTP(host)  # expect: ADK-W004
    c = imaplib.IMAP4_SSL(host)  # expect: ADK-W004
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)  # expect: ADK-W004
    reader, writer = await asyncio.open_connection(host, 80)  # expect: ADK-W004
    epoch = datetime.datetime(1970, 1, 1)
    d = epoch.now()  # expect: ADK-W003
    e = email.utils.formatdate()  # expect: ADK-W003
    f = email.utils.formatdate(0)
    g = email.utils.make_msgid()  # expect: ADK-W002
    threading.Timer(5, callback).start()  # expect: ADK-W009
    return a, b, c, s, reader, writer, d, e, f, g
