#!/bin/sh
# fanout.sh — the nginx + Nchan fan-out of deploy/ on loopback, for
# bench_http --fanout: "start DAEMON_PORT DIR" runs nginx (the site's
# fan-out files, four worker processes, four viewer ports for as many
# connections as the loopback's ephemeral ports allow), then prints
# "FIRST_VIEWER_PORT NPORTS"; "stop DAEMON_PORT DIR" stops it.  The daemon
# publishes to Nchan itself (serve --nchan-publish) on NCHAN_PUB_PORT, which
# bench_http chooses; without it the relay (deploy/nchan-relay.py) does, on
# a port chosen here (bench_http with FANOUT_RELAY=1).  Needs nginx and
# libnginx-mod-nchan.
#
#   ARBITER_BIN=build/server/arbiter build/tests/bench/bench_http --only-viewers 1 \
#       --viewers 50000 --viewer-procs 4 --moves 10 --fanout tests/bench/fanout.sh
set -eu
verb="$1" dport="$2" dir="$3"
top=$(cd "$(dirname "$0")/../.." && pwd)
nginx=${NGINX:-nginx}
module=${NCHAN_MODULE:-/usr/lib/nginx/modules/ngx_nchan_module.so}
case "$verb" in
stop)
    [ -f "$dir/relay.pid" ] && kill "$(cat "$dir/relay.pid")" 2>/dev/null || true
    if [ -f "$dir/nginx.pid" ]; then
        pid=$(cat "$dir/nginx.pid")
        kill -TERM "$pid" 2>/dev/null || true
        i=0
        while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    fi
    exit 0 ;;
start) ;;
*) echo "usage: fanout.sh start|stop DAEMON_PORT DIR" >&2; exit 2 ;;
esac
command -v "$nginx" >/dev/null && [ -f "$module" ] || {
    echo "fanout.sh: nginx with the Nchan module is needed (apt-get install libnginx-mod-nchan)" >&2
    exit 77
}
# Free ports: the publisher and four viewer ports in a row.
ports=$(python3 -c '
import socket
def free(n):
    for base in range(20000 + (__import__("os").getpid() % 2000) * 10, 60000, 7):
        ss = []
        try:
            for i in range(n):
                s = socket.socket(); s.bind(("127.0.0.1", base + i)); ss.append(s)
            return base
        except OSError:
            pass
        finally:
            for s in ss: s.close()
print(free(1), free(4) + 1000)')
pub=${NCHAN_PUB_PORT:-${ports% *}} view=${ports#* }
mkdir -p "$dir/nginx/tmp"
sed "s/127.0.0.1:8090/127.0.0.1:$pub/" "$top/deploy/nginx/arbiter-fanout.conf" >"$dir/nginx/fanout.conf"
listen=""
for i in 0 1 2 3; do listen="$listen    listen 127.0.0.1:$((view + i)) reuseport backlog=4096;
"; done
cat >"$dir/nginx/nginx.conf" <<CONF
load_module $module;
user root;
worker_processes 4;
worker_rlimit_nofile 20000;
pid $dir/nginx.pid;
error_log $dir/nginx/error.log warn;
events { worker_connections 19000; multi_accept on; }
http {
    access_log off;
    client_body_temp_path $dir/nginx/tmp/body;
    proxy_temp_path $dir/nginx/tmp/proxy;
    fastcgi_temp_path $dir/nginx/tmp/fastcgi;
    uwsgi_temp_path $dir/nginx/tmp/uwsgi;
    scgi_temp_path $dir/nginx/tmp/scgi;
    map "\$cookie_arbiter_session\$http_authorization" \$arbiter_signed_in {
        ""      0;
        default 1;
    }
    upstream arbiter { server 127.0.0.1:$dport; keepalive 8; }
    include $dir/nginx/fanout.conf;
    server {
$listen        include $top/deploy/nginx/arbiter-fanout-streams.conf;
        location / { proxy_pass http://arbiter; proxy_http_version 1.1; proxy_set_header Connection ""; }
    }
}
CONF
"$nginx" -c "$dir/nginx/nginx.conf" -p "$dir/nginx" >&2
if [ -z "${NCHAN_PUB_PORT:-}" ]; then
    python3 "$top/deploy/nchan-relay.py" --api "http://127.0.0.1:$dport" \
        --pub "http://127.0.0.1:$pub/pub" --poll 0.5 >"$dir/relay.log" 2>&1 &
    echo $! >"$dir/relay.pid"
fi
echo "$view 4"
