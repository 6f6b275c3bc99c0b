#!/bin/bash
# How long a new user waits: a fresh clone of this repository's current branch, `make run`, until the
# scoreboard answers HTTP 200. Prints the seconds and the load average (on a shared machine they go
# together). Uses the pip cache as it is; everything lands in a temporary folder, removed afterwards.
#   sh scripts/first-page.sh        (docs/testing.md#start-up)
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
branch=$(git -C "$repo" rev-parse --abbrev-ref HEAD)
dir=$(mktemp -d "${TMPDIR:-/tmp}/rig-first-page.XXXX")
trap 'rm -rf "$dir"' EXIT
start=$(date +%s.%N)
git clone -q --branch "$branch" "$repo" "$dir/rig" || exit 1
cd "$dir/rig" || exit 1
make run PORT=0 RUN_ARGS="--data-dir $dir/data" > "$dir/make-run.log" 2>&1 &
make_pid=$!
url=""
while [ -z "$url" ]; do
    url=$(grep -o 'scoreboard at http://[^ ]*' "$dir/make-run.log" | head -1 | sed 's/scoreboard at //')
    if ! kill -0 "$make_pid" 2>/dev/null; then
        echo "make run stopped before the page was up:" >&2
        cat "$dir/make-run.log" >&2
        exit 1
    fi
    sleep 0.2
done
until python3 -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=5)" "$url" 2>/dev/null; do
    sleep 0.1
done
end=$(date +%s.%N)
echo "fresh clone -> make run -> first page: $(python3 -c "print(f'{$end - $start:.1f}')") s" \
    "(load average $(cut -d' ' -f1-3 /proc/loadavg))"
pkill -INT -P "$make_pid" 2>/dev/null  # the rig make started
wait "$make_pid" 2>/dev/null
exit 0
