import glob
import io
import os
import pathlib
import shutil
import tempfile
from pathlib import Path

__adk_workflow__ = True


async def run(ctx, name: str, target: Path):
    with open(f"{name}.json") as handle:  # expect: ADK-W008:9
        text = handle.read()
    data = io.open("data.bin", "rb")  # expect: ADK-W008
    prompt = Path("prompts/greeting.txt").read_text()  # expect: ADK-W008
    blob = pathlib.Path("blob").read_bytes()  # expect: ADK-W008
    target.write_text(text)  # expect: ADK-W008
    exists = target.exists()  # expect: ADK-W008
    listing = list(Path("inbox").iterdir())  # expect: ADK-W008
    jsons = Path("inbox").glob("*.json")  # expect: ADK-W008
    deep = Path("inbox").rglob("*.json")  # expect: ADK-W008
    size = target.stat().st_size  # expect: ADK-W008
    Path("out").mkdir(exist_ok=True)  # expect: ADK-W008
    target.unlink()  # expect: ADK-W008
    with target.open() as other:  # expect: ADK-W008
        other.read()
    names = os.listdir(".")  # expect: ADK-W008
    entries = os.scandir(".")  # expect: ADK-W008
    for root, dirs, files in os.walk("."):  # expect: ADK-W008
        pass
    stat = os.stat("a")  # expect: ADK-W008
    os.remove("a")  # expect: ADK-W008
    os.makedirs("b", exist_ok=True)  # expect: ADK-W008
    found = glob.glob("*.py")  # expect: ADK-W008
    lazy = glob.iglob("*.py")  # expect: ADK-W008
    shutil.copy("a", "b")  # expect: ADK-W008
    shutil.rmtree("b")  # expect: ADK-W008
    here = os.path.exists("a")  # expect: ADK-W008
    is_file = os.path.isfile("a")  # expect: ADK-W008
    is_dir = os.path.isdir("a")  # expect: ADK-W008
    mtime = os.path.getmtime("a")  # expect: ADK-W008
    length = os.path.getsize("a")  # expect: ADK-W008
    scratch = tempfile.mkdtemp()  # expect: ADK-W008
    with tempfile.TemporaryDirectory() as tmp:  # expect: ADK-W008
        pass
    return (data, prompt, blob, exists, listing, jsons, deep, size, entries, stat, names,
            found, lazy, here, is_file, is_dir, mtime, length, scratch, tmp)
