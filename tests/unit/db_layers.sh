#!/bin/sh
# db_layers.sh LIBDB SRCDIR — the modules of db/ form layers: no module may
# use, directly or around a circle, a module that uses it.  Checked twice:
# on the symbols of the compiled objects (nm: module A uses B when A has an
# undefined symbol that B defines) and on the #include "..." lines between
# db/'s own files.  A circle means a module can no longer be understood,
# tested or moved without the other; the fix is to move the shared part
# down into a module both can use.
set -u
LIB="$1"
SRC="$2"
if ! command -v nm >/dev/null 2>&1 || ! command -v tsort >/dev/null 2>&1; then
    echo "SKIP: nm or tsort missing"
    exit 77
fi
T="${TMPDIR:-/tmp}/arbiter-db-layers-$$"
mkdir -p "$T" || exit 1
trap 'rm -rf "$T"' EXIT
status=0

# Prints the pairs "A B" of EDGES (one "A B" a line) used both ways, and
# whether the edges contain any longer circle (tsort names one).
check() {
    what="$1"
    edges="$2"
    awk '{ e[$1 " " $2] = 1 } END { for (k in e) { split(k, p, " ");
          if (p[1] < p[2] && ((p[2] " " p[1]) in e)) print p[1] " <-> " p[2] } }' "$edges" \
        >"$T/pairs"
    if [ -s "$T/pairs" ]; then
        echo "FAIL ($what): modules that use each other:"
        sed 's/^/  /' "$T/pairs"
        status=1
    fi
    if ! tsort "$edges" >/dev/null 2>"$T/tsort"; then
        echo "FAIL ($what): a circle of modules:"
        sed 's/^/  /' "$T/tsort"
        status=1
    fi
}

# ---- symbols ----
nm -A -g "$LIB" >"$T/nm" 2>/dev/null || { echo "FAIL: nm cannot read $LIB"; exit 1; }
awk '
function module(line,   m) {
    if (!match(line, /[^\/:]+\.o:/))
        return ""
    m = substr(line, RSTART, RLENGTH - 1)
    sub(/^meson-generated_\.\._/, "", m)
    sub(/\.o$/, "", m)
    sub(/\.c$/, "", m)
    return m
}
NR == FNR { if ($(NF - 1) != "U") def[$NF] = module($0); next }
$(NF - 1) == "U" && ($NF in def) {
    a = module($0); b = def[$NF]
    if (a != b && !seen[a " " b]++) print a, b
}' "$T/nm" "$T/nm" >"$T/sym_edges"
if [ ! -s "$T/sym_edges" ]; then
    echo "FAIL: no symbol is shared between the objects of $LIB (wrong file?)"
    exit 1
fi
check "symbols" "$T/sym_edges"

# ---- includes ----
: >"$T/inc_edges"
for f in "$SRC"/*.c "$SRC"/*.h; do
    a=$(basename "$f")
    a="${a%.*}"
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)\.h".*/\1/p' "$f" |
        while read -r b; do
            if [ "$b" != "$a" ] && [ -f "$SRC/$b.h" ]; then
                echo "$a $b"
            fi
        done >>"$T/inc_edges"
done
check "includes" "$T/inc_edges"

if [ "$status" = 0 ]; then
    echo "ok: $(wc -l <"$T/sym_edges") symbol and $(wc -l <"$T/inc_edges") include edges, no circle"
fi
exit "$status"
