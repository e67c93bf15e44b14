#!/usr/bin/env bash
# Starts the services the test suite uses (PostgreSQL 15, Redis) when they are installed but down; openssl for the TLS test,
# systemd-analyze for the deploy doc's unit check.
# Prints one line per service; never fails the run by itself — suites that need a missing service say so.
set -u
pg_up() { command -v pg_isready >/dev/null && pg_isready -q -h 127.0.0.1 -p 5432; }
redis_up() { command -v redis-cli >/dev/null && [ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = "PONG" ]; }

if ! pg_up && command -v pg_ctlcluster >/dev/null; then
  ver=$(ls /etc/postgresql 2>/dev/null | sort -n | tail -1)
  [ -n "$ver" ] && pg_ctlcluster --skip-systemctl-redirect "$ver" main start >/dev/null 2>&1
  for _ in $(seq 1 30); do pg_up && break; sleep 0.5; done
fi
if ! redis_up && command -v redis-server >/dev/null; then
  mkdir -p /var/lib/redis /var/log/redis 2>/dev/null
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log >/dev/null 2>&1
  for _ in $(seq 1 20); do redis_up && break; sleep 0.25; done
fi
# The TLS sender test makes its certificate with the openssl CLI. Installed from Debian only when missing, and
# only under CI (a developer's machine is theirs to change); the test fails under CI=true without it.
if ! command -v openssl >/dev/null && [ "${CI:-}" = "true" ] && command -v apt-get >/dev/null; then
  as_root=""; [ "$(id -u)" -eq 0 ] || as_root="sudo -n"
  { $as_root apt-get update -qq && DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq --no-install-recommends openssl; } >/dev/null 2>&1
fi
# The deploy doc's systemd units are checked with `systemd-analyze verify` (packages/server/test/deploy.docs.test.ts);
# on Debian the tool ships in the systemd package (`dpkg -S systemd-analyze`). Installed when missing under CI, like
# openssl; the test fails under CI=true without it.
if ! command -v systemd-analyze >/dev/null && [ "${CI:-}" = "true" ] && command -v apt-get >/dev/null; then
  as_root=""; [ "$(id -u)" -eq 0 ] || as_root="sudo -n"
  { $as_root apt-get update -qq && DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq --no-install-recommends systemd; } >/dev/null 2>&1
fi
# The console's browser tests drive Debian's Chromium (packages/server/test/console.browser.test.ts); installed when
# missing under CI, like openssl; the tests fail under CI=true without it.
if [ ! -x /usr/bin/chromium ] && [ "${CI:-}" = "true" ] && command -v apt-get >/dev/null; then
  as_root=""; [ "$(id -u)" -eq 0 ] || as_root="sudo -n"
  { $as_root apt-get update -qq && DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq chromium; } >/dev/null 2>&1
fi
# The egress proxy tests deliver through a real forward proxy from Debian, tinyproxy, which each test starts itself on a
# free loopback port with its own config (packages/core/testing/tinyproxy.ts). Installed when missing under CI, like
# openssl; the tests fail under CI=true without it.
if [ ! -x /usr/bin/tinyproxy ] && [ "${CI:-}" = "true" ] && command -v apt-get >/dev/null; then
  as_root=""; [ "$(id -u)" -eq 0 ] || as_root="sudo -n"
  { $as_root apt-get update -qq && DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq --no-install-recommends tinyproxy; } >/dev/null 2>&1
fi
pg_up && echo "services: postgresql up at 127.0.0.1:5432" || echo "services: postgresql NOT available (its suites will be skipped; under CI=true they fail)"
redis_up && echo "services: redis up at 127.0.0.1:6379" || echo "services: redis NOT available (its suites will be skipped; under CI=true they fail)"
command -v openssl >/dev/null && echo "services: openssl $(openssl version | cut -d' ' -f2)" || echo "services: openssl NOT available (the TLS test will be skipped; under CI=true it fails)"
[ -x /usr/bin/chromium ] && echo "services: chromium $(/usr/bin/chromium --version 2>/dev/null | cut -d' ' -f2)" || echo "services: chromium NOT available (the console browser tests will be skipped; under CI=true they fail)"
command -v systemd-analyze >/dev/null && echo "services: systemd-analyze $(systemd-analyze --version 2>/dev/null | head -1 | cut -d' ' -f2)" || echo "services: systemd-analyze NOT available (the deploy unit check will be skipped; under CI=true it fails)"
[ -x /usr/bin/tinyproxy ] && echo "services: tinyproxy $(/usr/bin/tinyproxy -v 2>/dev/null | cut -d' ' -f2)" || echo "services: tinyproxy NOT available (the real-proxy tests will be skipped; under CI=true they fail)"
