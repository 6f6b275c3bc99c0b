#!/bin/sh
# Creates the virtual environment `make run` and `make test` use, or says in one line why it cannot.
# Usage: make-venv.sh PYTHON VENV [venv flags...]   (the Makefile calls it; PYTHON=python3.12 make run works)
# Stock Debian's python3 has no venv's pip (ensurepip) without the python3-venv package: Python's own
# error for that is a page long, so it is checked first and named here.
set -e
python=$1
venv=$2
shift 2
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
    exit 0  # there already, with pip
fi
if ! command -v "$python" >/dev/null 2>&1; then
    echo "make: $python is not installed: sudo apt-get install python3 python3-venv (Python 3.11 or newer)" >&2
    exit 2
fi
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "make: $python is $("$python" -c 'import platform; print(platform.python_version())' 2>/dev/null), the rig needs Python 3.11 or newer (PYTHON=python3.11 make run)" >&2
    exit 2
fi
if ! "$python" -c 'import ensurepip, venv' >/dev/null 2>&1; then
    echo "make: $python cannot create a virtual environment: sudo apt-get install python3-venv (Debian's python3 leaves it out), then make again" >&2
    exit 2
fi
if [ -f "$venv/pyvenv.cfg" ]; then rm -rf "$venv"; fi  # a half-made one (no pip) from an earlier failure
"$python" -m venv "$@" "$venv"
