#!/bin/sh
# Regenerates samples/heat-stencil/profiles/callgrind.out.heat-stencil-4ranks: a real (measured)
# callgrind profile of the demo program, with per-line costs for the editor heat overlay.
#
# The program is built as its Makefile builds it (-O2 -g) into a scratch folder, with the source
# paths mapped to /home/hpc/heat-stencil like the other demo profiles (the extension maps them onto
# the workspace by their trailing components). It runs on 4 ranks (threads, see minimpi) with a small
# plate, because callgrind runs the program about 50 times slower:
#   heat -n 4 -x 128 -y 128 -i 100 -r 10 -c 50
# Callgrind options:
#   --dump-line=yes --dump-instr=no             costs per source line
#   --collect-atstart=no --toggle-collect=rank_main
#                                               only the ranks' work (not the dynamic loader)
#   --separate-threads=yes --combine-dumps=yes  one part per thread (rank) in one file
# LD_BIND_NOW=1 resolves symbols at start-up, so lazy binding does not show up inside rank_main.
# Instruction counts are deterministic up to the thread interleaving of the spin-waits.
# Needs gcc, make and valgrind. Run from anywhere: sh scripts/generate-heat-stencil-callgrind.sh
set -eu

sample=$(cd "$(dirname "$0")/../samples/heat-stencil" && pwd)
out="$sample/profiles/callgrind.out.heat-stencil-4ranks"
work=${TMPDIR:-/tmp}/hpc-lens-heat-stencil-callgrind
rm -rf "$work" && mkdir -p "$work/build"
trap 'rm -rf "$work"' EXIT

make -s -C "$sample" BUILD="$work/build" \
  CFLAGS="-std=c11 -O2 -g -fPIC -Wall -Wextra -pthread -fdebug-prefix-map=$sample=/home/hpc/heat-stencil"
LD_BIND_NOW=1 valgrind --tool=callgrind --dump-line=yes --dump-instr=no \
  --collect-atstart=no --toggle-collect=rank_main --separate-threads=yes --combine-dumps=yes \
  --callgrind-out-file="$work/callgrind.out" \
  "$work/build/heat" -n 4 -x 128 -y 128 -i 100 -r 10 -c 50 -o "$work/heat.ckpt" > /dev/null 2> "$work/valgrind.log" ||
  { cat "$work/valgrind.log" >&2; exit 1; }
cp "$work/callgrind.out" "$out"
chmod 644 "$out"
echo "wrote $out"
