#!/bin/sh
# The suite's temporary files: the last run's stay in DIR/last for a look after a failure; older ones are
# removed in the background while the suite runs (pytest would remove them at its end, on the wall clock:
# on a disk mounted with `discard` each unlink takes ~3 ms, and one run leaves ~5,000 files).
# Usage: test-tmp.sh DIR   (prints nothing; make test then runs pytest --basetemp=DIR/last)
set -e
dir=$1
[ -n "$dir" ] || { echo "usage: test-tmp.sh DIR" >&2; exit 2; }
mkdir -p "$dir"
if [ -e "$dir/last" ]; then
    mv "$dir/last" "$dir/old.$$"
fi
if ls -d "$dir"/old.* >/dev/null 2>&1; then
    # detached, so that it never holds make up; a second run finds what is left and goes on with it
    nohup nice -n 19 rm -rf "$dir"/old.* >/dev/null 2>&1 &
fi
exit 0
