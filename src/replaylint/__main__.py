"""`python -m replaylint` runs the command line."""

from replaylint.cli import main

if __name__ == "__main__":
    main()
