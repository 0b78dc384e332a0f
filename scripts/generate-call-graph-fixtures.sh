#!/bin/sh
# Regenerates the call-graph fixtures in test/fixtures/call-graph/ by running the real tools on the
# fixture program there (main.c, kernels.c, recursion.c):
#
#   gprof.txt, gprof-brief.txt, gprof-lines.txt     gprof prog gmon.out (default, -b, -l)
#   callgrind.out.main                              callgrind, costs below main only, one event (Ir)
#   callgrind.out.uncompressed-strings              the same with --compress-strings=no and the cache
#                                                   and branch simulators (13 events)
#   callgrind.out.instr                             --dump-instr=yes: positions "instr line"
#   callgrind.out.whole-program.gz                  the whole run (ld.so, below main), gzip'd
#
# gprof samples time, so its numbers change from run to run; the tests compare the readers with the
# files' own totals, never with hard-coded values. Source paths are mapped to /build/call-graph so the
# output does not depend on where the repository is checked out.
# Needs gcc, gprof (binutils), valgrind and gzip. Run from anywhere: sh scripts/generate-call-graph-fixtures.sh
set -eu

out=$(cd "$(dirname "$0")/../test/fixtures/call-graph" && pwd)
# A fixed build folder, so the object paths callgrind records are the same on every run.
work=${TMPDIR:-/tmp}/hpc-lens-call-graph-fixtures
rm -rf "$work" && mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
sources="main.c kernels.c recursion.c"
# -fno-inline keeps every function a function of its own, so the call graph has all its arcs.
cflags="-O1 -fno-inline -g -fdebug-prefix-map=$out=/build/call-graph"

cd "$out"
# shellcheck disable=SC2086
gcc $cflags -pg -o "$work/prog-pg" $sources
# shellcheck disable=SC2086
gcc $cflags -o "$work/prog" $sources

cd "$work"
# About half a second of run time: enough samples at gprof's 10 ms period.
./prog-pg 500 > /dev/null
gprof prog-pg gmon.out > "$out/gprof.txt"
gprof -b prog-pg gmon.out > "$out/gprof-brief.txt"
gprof -l prog-pg gmon.out > "$out/gprof-lines.txt"

run_callgrind() {
  file=$1; shift
  valgrind --tool=callgrind --dump-line=yes --callgrind-out-file="$file" "$@" ./prog 1 > /dev/null 2> callgrind.log ||
    { cat callgrind.log >&2; exit 1; }
}
run_callgrind "$out/callgrind.out.main" --dump-instr=no --toggle-collect=main
run_callgrind "$out/callgrind.out.uncompressed-strings" --dump-instr=no --toggle-collect=main \
  --compress-strings=no --cache-sim=yes --branch-sim=yes
run_callgrind "$out/callgrind.out.instr" --dump-instr=yes --toggle-collect=main
run_callgrind whole-program --dump-instr=no
gzip -9 -n -c whole-program > "$out/callgrind.out.whole-program.gz"
chmod 644 "$out"/callgrind.out.*
echo "wrote the call-graph fixtures to $out"
