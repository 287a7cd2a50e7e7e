"""`replaylint` and `python -m replaylint` run the command line. A re-run whose last identical
run is remembered is answered before the command line is even imported (index/rerun.py)."""

import sys


def main() -> None:
    from replaylint.index import rerun

    argv = sys.argv[1:]
    code = rerun.answer(argv)
    if code is not None:
        sys.exit(code)
    recording = rerun.record(argv)
    from replaylint.cli.main import main as command_line

    try:
        command_line()
    except SystemExit as end:
        rerun.stop()
        if recording is not None:
            recording.keep(end.code)
        raise
    finally:
        rerun.stop()


if __name__ == "__main__":
    main()
