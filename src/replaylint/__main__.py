"""`replaylint` and `python -m replaylint` run the command line. A re-run whose last identical
run is remembered is answered before the command line is even imported (index/rerun.py); a run
that may be is recorded as it goes (index/recording.py)."""

import sys


def main() -> None:
    from replaylint.index.rerun import answer

    argv = sys.argv[1:]
    code = answer(argv)
    if code is not None:
        sys.exit(code)
    from replaylint.index import recording

    run = recording.record(argv)
    from replaylint.cli.main import main as command_line

    try:
        command_line()
    except SystemExit as end:
        recording.stop()
        if run is not None:
            run.keep(end.code)
        raise
    finally:
        recording.stop()


if __name__ == "__main__":
    main()
