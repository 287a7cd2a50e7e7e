"""`python -m replaylint` runs the command line."""

from replaylint.cli.main import main

if __name__ == "__main__":
    main()
