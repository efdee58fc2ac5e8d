# Bash functions the README test's sessions call for the blocks marked `serves` and `crontab` (see
# readme-commands-process.test.ts). READMETEST_FOLDER, READMETEST_SERVE_DEADLINE_S and READMETEST_CRON_BIN come from it.

# Runs a line until it prints an http:// address, checks the address answers HTTP 200, then ends it with SIGINT.
readme_serves() {
  local line="$1" log address status job deadline
  log="$(mktemp "$READMETEST_FOLDER/serves.XXXXXX")"
  # Job control for this job alone: its own process group, and SIGINT not ignored as in a script's background jobs.
  set -m
  bash -c "$line" > "$log" 2>&1 &
  job=$!
  set +m
  echo "$job" >> "$READMETEST_FOLDER/groups"
  deadline=$((SECONDS + READMETEST_SERVE_DEADLINE_S))
  until address="$(grep -o -m 1 'http://[^[:space:])]*' "$log")"; do
    if ! kill -0 "$job" 2> /dev/null; then
      echo "'$line' ended before printing an address:" >&2
      cat "$log" >&2
      return 1
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "'$line' printed no address in $READMETEST_SERVE_DEADLINE_S s:" >&2
      cat "$log" >&2
      kill -KILL -- "-$job"
      return 1
    fi
    sleep 0.2
  done
  status="$(curl --silent --output /dev/null --write-out '%{http_code}' "$address")" || true
  kill -INT -- "-$job"
  wait "$job" || true
  while kill -0 -- "-$job" 2> /dev/null; do sleep 0.1; done
  if [ "$status" != 200 ]; then
    echo "'$line' printed $address, which answered HTTP status $status:" >&2
    cat "$log" >&2
    return 1
  fi
  echo "served: '$line' at $address (HTTP $status), ended by SIGINT"
}

# Runs each job of a crontab as cron does: the five schedule fields dropped, `\%` read as `%`, /bin/sh, cron's
# environment (HOME, LOGNAME, SHELL, PATH=/usr/bin:/bin or the crontab's PATH line). /usr/local/bin in that line stands
# for READMETEST_CRON_BIN (the test's npm prefix and Node); MLSO_BASE_URL is kept, so the job asks the demo server.
readme_crontab() {
  local entry command cron_path=/usr/bin:/bin
  while IFS= read -r entry; do
    case "$entry" in '' | '#'*) continue ;; esac
    if [[ "$entry" =~ ^PATH= ]]; then
      cron_path="${entry#PATH=}"
      cron_path="${cron_path//\/usr\/local\/bin/$READMETEST_CRON_BIN}"
      continue
    fi
    command="$(sed -E 's/^([^[:space:]]+[[:space:]]+){5}//' <<< "$entry")"
    command="${command//\\%/%}"
    env -i HOME="$HOME" LOGNAME="$(id -un)" SHELL=/bin/sh PATH="$cron_path" MLSO_BASE_URL="$MLSO_BASE_URL" /bin/sh -c "$command"
  done <<< "$1"
}
