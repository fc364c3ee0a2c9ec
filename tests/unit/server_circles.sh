#!/bin/sh
# server_circles.sh — fails when two of the server's object files use each
# other's symbols (a circle between two modules).  Each pair of files may
# depend on each other in one direction only; where two parts must talk
# both ways, one of them registers a callback (http.h's HttpHooks,
# flags.h's FlagsCommitted).
#
# Usage: server_circles.sh NM INPUT...  where each INPUT is an object file,
# a static library (its members) or a directory (its *.o files): the
# daemon's library and the command line's objects.  With SERVER_SRC set to
# the server's source folder, the include graph is checked the same way:
# no two modules (X.c and X.h together) include each other's header.
set -eu
nm_prog=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
objects() {
    for i in "$@"; do
        if [ -d "$i" ]; then
            for o in "$i"/*.o; do echo "$o"; done
        else
            echo "$i"
        fi
    done
}
# nm -A names each symbol's file ("lib.a:member.o: ..." or "file.o: ...");
# a module is that file's name without .c.o / .o.
module='{f = $1; sub(/:[0-9a-f]*$/, "", f); sub(/^.*[:\/]/, "", f); sub(/\.o$/, "", f); sub(/\.c$/, "", f)}'
count=0
for o in $(objects "$@"); do
    count=$((count + 1))
    "$nm_prog" -A --defined-only -g "$o" | awk "$module"' NF >= 3 {print $3, f}' >>"$tmp/defs"
    "$nm_prog" -A -u "$o" | awk "$module"' {print f, $NF}' >>"$tmp/uses"
done
# "user definer" for each use of another file's symbol, then the pairs
# seen in both directions.
awk 'NR == FNR {def[$1] = $2; next}
     ($2 in def) && def[$2] != $1 {print $1, def[$2], $2}' "$tmp/defs" "$tmp/uses" |
    sort -u >"$tmp/edges"
awk '{e[$1 " " $2] = e[$1 " " $2] " " $3}
     END {bad = 0
          for (k in e) {split(k, p, " ")
              if ((p[2] " " p[1]) in e && p[1] < p[2]) {
                  printf "circle: %s uses%s; %s uses%s\n", p[1], e[k], p[2], e[p[2] " " p[1]]
                  bad = 1}}
          exit bad}' "$tmp/edges"
n=$(awk '{print $1 " " $2}' "$tmp/edges" | sort -u | wc -l)
echo "ok: $count inputs, $n one-way file dependencies, no circle"
if [ -n "${SERVER_SRC:-}" ]; then
    for f in "$SERVER_SRC"/*.[ch] "$SERVER_SRC"/*/*.[ch]; do
        [ -f "$f" ] || continue
        m=$(basename "$f")
        m=${m%.?}
        sed -n 's/^#include "\([a-z_0-9]*\)\.h".*/\1/p' "$f" | while read -r h; do
            if [ "$h" != "$m" ]; then echo "$m $h"; fi
        done
    done | sort -u >"$tmp/includes"
    awk '{e[$1 " " $2] = 1}
         END {bad = 0
              for (k in e) {split(k, p, " ")
                  if ((p[2] " " p[1]) in e && p[1] < p[2]) {
                      printf "include circle: %s.h and %s.h\n", p[1], p[2]
                      bad = 1}}
              exit bad}' "$tmp/includes"
    echo "ok: no include circle in $SERVER_SRC"
fi
