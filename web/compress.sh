#!/bin/sh
# Writes the gzip copy (FILE.gz, beside FILE) of every text file the daemon
# serves from this web root, for clients that accept gzip (server/webfiles.c
# sends it only while it is at least as new as FILE).  Only files newer than
# their copy are compressed again, so running it on every build costs little.
#   compress.sh WEB_ROOT [STAMP]
set -eu
root="$1"
stamp="${2:-}"
case "$stamp" in ""|/*) ;; *) stamp="$PWD/$stamp" ;; esac
cd "$root"
for f in *.html favicon.svg js/*.js css/*.css i18n/*.json \
         dist/*.html dist/*.js dist/*.css dist/*.json \
         node_modules/chessground/dist/*.js node_modules/chessground/assets/*.css; do
    [ -f "$f" ] || continue
    if [ ! -f "$f.gz" ] || [ "$f" -nt "$f.gz" ]; then
        gzip -9 -n -c "$f" >"$f.gz.tmp"
        touch -r "$f" "$f.gz.tmp"
        mv "$f.gz.tmp" "$f.gz"
    fi
done
if [ -n "$stamp" ]; then : >"$stamp"; fi
