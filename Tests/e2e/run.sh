#!/usr/bin/env bash
# End-to-end tests of the real skycast binary: driven with tmux send-keys, read with capture-pane.
# Each test has its own tmux server and its own XDG directories. Prints "N passed, M failed".
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${SKYCAST_BIN:-$root/.build/debug/skycast}
[ -x "$bin" ] || { echo "e2e: $bin not built (run swift build)"; exit 2; }
command -v tmux >/dev/null || { echo "e2e: tmux is missing"; exit 2; }

work=$(mktemp -d)
socket=""
sockets=()
server_pid=""
cleanup() {
    for used in "${sockets[@]}"; do tmux -L "$used" kill-server 2>/dev/null; done
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

passed=0
failed=0
current=""
ok() { passed=$((passed + 1)); echo "ok - $current: $1"; }
not_ok() {
    failed=$((failed + 1))
    echo "not ok - $current: $1"
    echo "---- screen ----"; screen | sed 's/^/| /'; echo "----------------"
}

screen() { tmux -L "$socket" capture-pane -p -t app 2>/dev/null; }
screen_with_colours() { tmux -L "$socket" capture-pane -e -p -t app 2>/dev/null; }
keys() { tmux -L "$socket" send-keys -t app "$@"; }
typed() { tmux -L "$socket" send-keys -t app -l "$1"; }

# wait_for PATTERN [SECONDS]: true once the screen matches the extended regex.
wait_for() {
    local deadline=$((SECONDS + ${2:-8}))
    while [ $SECONDS -le "$deadline" ]; do
        screen | grep -Eq -- "$1" && return 0
        sleep 0.1
    done
    return 1
}

expect() { if wait_for "$1" "${3:-8}"; then ok "$2"; else not_ok "$2 (no /$1/)"; fi; }

# A shell in a 100×30 pane with this test's own XDG directories, on a tmux server of its own
# (reusing a socket while the previous server shuts down can make the new one exit at once).
start_shell() {
    local name=$1
    current=$name
    mkdir -p "$work/$name"
    [ -n "$socket" ] && tmux -L "$socket" kill-server 2>/dev/null
    socket="skycast-e2e-$$-$name"
    sockets+=("$socket")
    tmux -L "$socket" -f /dev/null new-session -d -s app -x 100 -y 30 \
        "env -i PATH=$PATH HOME=$work/$name TERM=xterm-256color LANG=C.UTF-8 SWIFT_BACKTRACE=interactive=no HISTFILE=/dev/null \
         XDG_CONFIG_HOME=$work/$name/config XDG_CACHE_HOME=$work/$name/cache PS1='e2e\$ ' bash --norc --noprofile"
    tmux -L "$socket" set-option -g window-size manual >/dev/null 2>&1
    wait_for 'e2e\$' 5 || true
}

run_in_shell() { typed "$1"; keys Enter; }

# The terminal is sane after skycast left it: canonical mode and echo back on.
expect_sane_terminal() {
    keys C-l
    run_in_shell "clear; stty -a | tr ' ;' '\n\n' | grep -E '^-?(icanon|echo)\$' | tr '\n' ' '; echo END"
    if wait_for 'icanon echo END' 5 && ! screen | grep -q -- '-icanon'; then ok "terminal restored ($1)"; else not_ok "terminal not restored ($1)"; fi
}

# ---------------------------------------------------------------------------------------------
start_shell main
run_in_shell "'$bin' --demo"
expect 'No cities yet' "first run shows the empty state"
expect 'DEMO DATA' "demo mode is labelled"

keys /
typed "Reykjav"
expect 'Reykjavík, Capital Region, IS' "search suggests from the offline catalog"
keys Enter
sleep 0.2
if screen_with_colours | grep 'Reykjav' | grep -Eq '48;5;(220|214|178|136)m'; then ok "the added row is highlighted (gold background)"; else not_ok "no highlight on the added row"; fi
expect 'Reykjavík, IS +[0-9]{2}:[0-9]{2} +[^ ]+ [A-Za-z]' "the added row fills in with weather (and its local time)"
sleep 2
if screen_with_colours | grep -Eq '48;5;(220|214|178|136|94|58)m'; then not_ok "the highlight is still there after 2 s"; else ok "the highlight has faded after 2 s"; fi
if screen_with_colours | grep 'Reykjav' | grep -Eq $'\e\\[([0-9]+;)*7m'; then ok "the selected new row shows the selection after its fade"; else not_ok "the new row lost its selection style"; fi

keys b
expect '★  Reykjavík, IS' "b bookmarks the city (★)"

keys '?'
expect ' Keys' "? shows the help overlay"
keys Escape
sleep 0.4
if wait_for ' Keys' 0; then not_ok "help did not close"; else ok "help closes"; fi

keys u
expect '°F' "u switches to Fahrenheit"
keys u
expect '°C' "u switches back to Celsius"

keys q
expect 'e2e\$' "q quits to the shell"
expect_sane_terminal "after q"

run_in_shell "'$bin' --demo"
expect '★  Reykjavík, IS' "the bookmark survives a restart"

tmux -L "$socket" resize-window -t app -x 50 -y 12
expect 'skycast' "50×12 still shows the table"
tmux -L "$socket" resize-window -t app -x 30 -y 6
expect 'terminal too small' "30×6 says the terminal is too small"
tmux -L "$socket" resize-window -t app -x 100 -y 30
expect '★  Reykjavík, IS' "100×30 again shows the table"

keys Enter
expect 'sunrise [0-9]{2}:[0-9]{2}' "Enter opens the detail view"
expect '[0-9]+ h\)' "with its chart"
keys Escape
expect 'CITY +TIME' "Esc returns to the table"

keys C-c
expect 'e2e\$' "Ctrl-C quits"
expect_sane_terminal "after Ctrl-C"

# SIGTERM leaves through endwin() too.
run_in_shell "'$bin' --demo"
expect '★  Reykjavík, IS' "started again"
pkill -TERM -f "^$bin --demo" || true
expect 'e2e\$' "SIGTERM quits"
expect_sane_terminal "after SIGTERM"

# A TERM without a terminfo entry falls back instead of crashing.
run_in_shell "TERM=no-such-terminal '$bin' --demo"
expect 'Reykjavík, IS' "an unknown TERM falls back to xterm-256color"
keys q
expect 'e2e\$' "and quits cleanly"

# A corrupt bookmarks file is kept aside and reported, not overwritten.
echo '{not json' > "$work/main/config/skycast/bookmarks.json"
run_in_shell "'$bin' --demo"
expect 'corrupt' "a corrupt bookmarks file is reported"
keys q
wait_for 'e2e\$' 5 || true
current=main
if ls "$work/main/config/skycast/" | grep -q 'bookmarks.json.corrupt-'; then ok "the corrupt file is kept aside"; else not_ok "the corrupt file was not kept"; fi

# ---------------------------------------------------------------------------------------------
# The terminal going away ends the process: no orphan spinning on a dead tty.

# cpu_ticks PID: user + system CPU time in clock ticks (zombies keep theirs), empty once reaped.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null; }
# alive PID: running or sleeping (a zombie has finished; nothing may reap it in a container).
alive() {
    local state
    state=$(awk '/^State:/ {print $2}' "/proc/$1/status" 2>/dev/null)
    [ -n "$state" ] && [ "$state" != Z ]
}
# skycast_pid: the skycast process started by this test's shell.
skycast_pid() { pgrep -n -f "^$bin --demo --no-cache$" ; }

# ends_after_hangup NAME HOW: HOW removes the terminal; the process must be gone within 2 s,
# having used under 0.2 s of CPU after it, and leave exit status 129.
ends_after_hangup() {
    local name=$1 how=$2 pid before after ticks status
    for _ in $(seq 50); do pid=$(skycast_pid); [ -n "$pid" ] && break; sleep 0.1; done
    [ -n "$pid" ] || { not_ok "$name: skycast did not start"; return; }
    sleep 0.5
    before=$(cpu_ticks "$pid")
    eval "$how"
    after=$before
    for _ in $(seq 20); do
        ticks=$(cpu_ticks "$pid"); [ -n "$ticks" ] && after=$ticks
        alive "$pid" || break
        sleep 0.1
    done
    if alive "$pid"; then not_ok "$name: still running 2 s after the terminal went away"; kill -9 "$pid"; return; fi
    if [ $((after - before)) -lt 20 ]; then ok "$name: gone within 2 s, $((after - before)) ticks of CPU after"; else not_ok "$name: $((after - before)) ticks of CPU after the terminal went away"; fi
    for _ in $(seq 20); do [ -s "$work/$name.status" ] && break; sleep 0.1; done
    status=$(cat "$work/$name.status" 2>/dev/null)
    if [ "$status" = 129 ]; then ok "$name: exit status 129"; else not_ok "$name: exit status '$status'"; fi
}

start_shell hangup-ignored
run_in_shell "bash -c \"trap '' HUP; '$bin' --demo --no-cache; echo \\\$? > '$work/hangup-ignored.status'\""
expect 'DEMO DATA' "started with SIGHUP ignored"
ends_after_hangup hangup-ignored 'tmux -L "$socket" kill-server'

start_shell hangup
run_in_shell "bash -c \"trap 'true' HUP; '$bin' --demo --no-cache; echo \\\$? > '$work/hangup.status'\""
expect 'DEMO DATA' "started with SIGHUP handled"
ends_after_hangup hangup 'tmux -L "$socket" kill-server'

# Input from a second pane's terminal, which is then closed: the output side stays.
start_shell stdin-closed
tmux -L "$socket" split-window -d -t app "sleep 600"
input_tty=$(tmux -L "$socket" display -p -t app.1 '#{pane_tty}')
run_in_shell "bash -c \"trap '' HUP; '$bin' --demo --no-cache < $input_tty; echo \\\$? > '$work/stdin-closed.status'\""
expect 'DEMO DATA' "started with input from another terminal"
ends_after_hangup stdin-closed 'tmux -L "$socket" kill-pane -t app.1'
expect_sane_terminal "after its input terminal closed"

# A crash: the signal's own exit status, and a usable terminal (modes, cursor, main screen).
start_shell crash
run_in_shell "'$bin' --demo --no-cache; echo status=\$?"
expect 'DEMO DATA' "started for the crash"
pkill -SEGV -f "^$bin --demo --no-cache$" || true
expect 'status=139' "SIGSEGV ends the process by that signal (139)"
expect_sane_terminal "after SIGSEGV"
flags=$(tmux -L "$socket" display -p -t app '#{cursor_flag} #{alternate_on}')
if [ "$flags" = "1 0" ]; then ok "cursor visible and the main screen back after SIGSEGV"; else not_ok "cursor/alternate screen after SIGSEGV: $flags"; fi

# Ctrl-Z suspends to the shell; fg redraws the table, which still answers keys.
start_shell suspend
run_in_shell "'$bin' --demo --no-cache"
expect 'DEMO DATA' "started for Ctrl-Z"
keys C-z
expect 'Stopped' "Ctrl-Z suspends to the shell"
run_in_shell "clear; fg"
expect 'DEMO DATA' "fg redraws the table"
keys '?'
expect ' Keys' "the table answers keys after fg"
keys Escape q
expect 'e2e\$' "and quits"

# A binary without its data folder says so, for every command, instead of trapping.
current=no-data
mkdir -p "$work/lone/bin"
cp "$bin" "$work/lone/bin/skycast"
for command in "find Seoul" "show --demo Seoul" "--demo"; do
    out=$(env -i PATH="$PATH" HOME="$work/lone" TERM=xterm-256color "$work/lone/bin/skycast" $command </dev/null 2>&1); status=$?
    if [ $status = 1 ] && [ "$(echo "$out" | wc -l)" = 1 ] && echo "$out" | grep -q "^skycast: city data not found (looked in: .*$work/lone/share/skycast"; then
        ok "no data folder: '$command' exits 1 with a clear message"
    else
        not_ok "no data folder: '$command' exit $status: $out"
    fi
done
out=$(SKYCAST_DATA_DIR="$root/Resources" "$work/lone/bin/skycast" find Seoul 2>&1); status=$?
if [ $status = 0 ] && echo "$out" | grep -q 'Seoul, KR'; then ok "SKYCAST_DATA_DIR points a lone binary at the data"; else not_ok "SKYCAST_DATA_DIR: exit $status $out"; fi

# ---------------------------------------------------------------------------------------------
# A first run offers the city of the user's time zone, found offline: from TZ, or /etc/localtime.
start_shell home
run_in_shell "TZ=Asia/Seoul '$bin' --demo --no-cache"
expect 'Seoul, KR' "TZ=Asia/Seoul offers Seoul"
expect 'b keeps it' "as a row to keep"
if screen | grep -q '★  Seoul'; then not_ok "it was bookmarked unasked"; else ok "not bookmarked unasked"; fi
keys q
expect 'e2e\$' "quits"
run_in_shell "clear; unshare -m bash --norc --noprofile -c \"mount -t tmpfs none /etc && ln -s /usr/share/zoneinfo/Asia/Tokyo /etc/localtime && exec env -u TZ '$bin' --demo --no-cache\""
expect 'Tokyo, JP' "/etc/localtime alone offers Tokyo"
keys q
expect 'e2e\$' "quits again"

# ---------------------------------------------------------------------------------------------
# No network, no cache: the row and the status bar say so, and D switches the run to demo data.
start_shell offline
run_in_shell "TZ=Europe/Oslo SKYCAST_OPEN_METEO_URL=http://127.0.0.1:1 '$bin' --timeout 1"
expect 'Oslo, NO .*offline' "the row says it is offline"
expect 'D: demo data' "the status bar offers demo data"
keys D
expect 'DEMO DATA' "D switches this run to demo data, labelled"
expect 'Oslo, NO +[0-9]{2}:[0-9]{2} +[^ ]+ [A-Za-z]' "and the row fills in"
keys q
expect 'e2e\$' "quits"

# ---------------------------------------------------------------------------------------------
# Offline means offline; same-named cities read apart; help scrolls in a small window.
start_shell newcomer
run_in_shell "SKYCAST_GEOCODING_URL=http://127.0.0.1:1 '$bin' find 東京 2>&1; echo status=\$?"
expect 'Tokyo, JP' "find 東京 answers from the catalog"
if screen | grep -q 'online search'; then not_ok "find went online unasked"; else ok "find stays offline unless --online"; fi
run_in_shell "clear; '$bin' show --demo Springfield"
expect "'Springfield' is [0-9]+ places; this is Springfield, Missouri, US" "show Springfield says which one and that there are others"
expect 'Springfield, Missouri, US +' "and names it fully in its row"
run_in_shell "clear; SKYCAST_GEOCODING_URL=http://127.0.0.1:1 '$bin' --demo --no-cache"
keys /
typed "Qxqxqxq"
keys Tab
expect 'demo mode searches only the offline catalog' "--demo never asks the geocoder"
keys Escape
tmux -L "$socket" resize-window -t app -x 50 -y 12
keys '?'
expect 'scroll \(' "help at 50×12 says it scrolls"
for _ in $(seq 30); do keys Down; done
expect 'thunder' "its last line is reachable"
keys q
tmux -L "$socket" resize-window -t app -x 100 -y 30
keys q
expect 'e2e\$' "quits"

# ---------------------------------------------------------------------------------------------
# The search prompt is a line editor: the cursor sits at the insertion point.
start_shell editor
run_in_shell "'$bin' --demo --no-cache"
expect 'No cities yet' "an empty table"
keys /
typed "Reykjavk"
keys Left
sleep 0.3
cursor=$(tmux -L "$socket" display -p -t app '#{cursor_x}')
if [ "$cursor" = 10 ]; then ok "the cursor sits before the last letter (column 10)"; else not_ok "cursor at column $cursor, not 10"; fi
typed "i"
expect 'Reykjavík, Capital Region, IS' "the inserted letter completes the name"
keys Enter
expect 'Reykjavík, IS' "Enter adds Reykjavík"
keys q
expect 'e2e\$' "quits"

# ---------------------------------------------------------------------------------------------
# Sorting goes through the diff: the rows it moves are marked, the title names the order.
start_shell sort
for city in Reykjavik Cairo Oslo Singapore; do
    env -i PATH="$PATH" HOME="$work/sort" XDG_CONFIG_HOME="$work/sort/config" "$bin" bookmarks add "$city" >/dev/null
done
run_in_shell "'$bin' --demo --no-cache"
expect '★  Singapore, SG' "four bookmarks in the saved order"
order_before=$(screen | grep -o '★  [A-Za-zí]*' | tr '\n' ' ')
keys s
marked=no
for _ in $(seq 30); do
    if screen_with_colours | grep -Eq '48;5;(39|33|32|25|24|23)m'; then marked=yes; break; fi
    sleep 0.02
done
if [ $marked = yes ]; then ok "s marks the rows that moved (blue)"; else not_ok "no row marked after s"; fi
expect 'by temperature' "the title names the order"
order_after=$(screen | grep -o '★  [A-Za-zí]*' | tr '\n' ' ')
if [ "$order_before" != "$order_after" ] && [ "$(echo "$order_after" | wc -w)" = "$(echo "$order_before" | wc -w)" ]; then ok "the rows are reordered ($order_after)"; else not_ok "order unchanged: $order_after"; fi
keys S
expect 'by temperature, reversed' "S reverses"
sleep 1
if screen_with_colours | grep -Eq '48;5;(39|33|32|25|24|23)m'; then not_ok "the mark is still there after a second"; else ok "the mark is gone after a second"; fi
keys u
expect '°F' "u switches to Fahrenheit"
keys q
expect 'e2e\$' "quits"
run_in_shell "clear; '$bin' --demo --no-cache"
expect 'by temperature, reversed' "the order is remembered across runs"
expect '°F' "so are the units"
if [ -s "$work/sort/.local/state/skycast/state.json" ]; then ok "in \$XDG_STATE_HOME/skycast/state.json"; else not_ok "no state.json"; fi
keys q
expect 'e2e\$' "quits again"

# ---------------------------------------------------------------------------------------------
# A read-only config folder (a read-only bind mount in a mount namespace of its own): bookmarks stay
# visible, and every change says it cannot be saved.
start_shell readonly
config="$work/readonly/config/skycast"
env -i PATH="$PATH" HOME="$work/readonly" XDG_CONFIG_HOME="$work/readonly/config" "$bin" bookmarks add Reykjavik >/dev/null
run_in_shell "unshare -m bash --norc --noprofile -c \"mount --bind '$config' '$config' && mount -o remount,ro,bind '$config' && PS1='ro\\$ ' exec bash --norc --noprofile\""
run_in_shell "touch '$config/probe' 2>/dev/null || echo READ-ONLY"
expect '^READ-ONLY' "the config folder is mounted read-only"
run_in_shell "clear; '$bin' bookmarks list"
expect 'Reykjavík, Capital Region, IS' "bookmarks list shows the bookmark"
if screen | grep -q 'cannot lock'; then not_ok "bookmarks list tried to lock"; else ok "bookmarks list needs no lock"; fi
run_in_shell "clear; '$bin' bookmarks add Tokyo; echo status=\$?"
expect "cannot save: bookmarks are read-only \\($config" "bookmarks add says it cannot save"
expect 'status=1' "bookmarks add exits 1"
run_in_shell "clear; '$bin' --demo --no-cache"
expect '★  Reykjavík, IS' "the table shows the bookmarked row"
expect 'bookmarks are read-only \(' "the table notes that bookmarks are read-only"
keys b
expect 'cannot save: bookmarks are read-only' "b says it cannot save"
if wait_for '★  Reykjavík, IS' 1; then ok "the star stays, as in the file"; else not_ok "the row changed though nothing was saved"; fi
keys q
expect 'ro\$' "quits"
run_in_shell "exit"
expect 'e2e\$' "the read-only mount ends with its shell"
current=readonly
if [ "$(ls "$config")" = "bookmarks.json" ]; then ok "nothing was written in the read-only folder"; else not_ok "read-only folder holds: $(ls -A "$config")"; fi

# ---------------------------------------------------------------------------------------------
# Against a loopback stand-in for Open-Meteo.
python3 "$here/fake_open_meteo.py" "$work/port" &
server_pid=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")
export_env="SKYCAST_OPEN_METEO_URL=http://127.0.0.1:$port SKYCAST_GEOCODING_URL=http://127.0.0.1:$port"

start_shell network
run_in_shell "$export_env '$bin'"
expect 'Open-Meteo' "the default provider is Open-Meteo"
keys /
typed "Paris, FR"
expect 'Paris, Île-de-France, FR' "search with a qualifier"
keys Enter
expect 'Paris, FR +[0-9]{2}:[0-9]{2} +☂ Light rain +12°' "weather from the loopback server"
expect 'Weather data by Open-Meteo.com' "the provider is credited"
keys /
typed "Atlantis"
keys Tab
expect 'Atlantis Online' "Tab asks the online geocoder (names sanitised)"
if screen_with_colours | grep 'Atlantis Online' | grep -q '\[31m'; then not_ok "an escape sequence from the network reached the screen"; else ok "no escape sequence from the network"; fi
keys Escape
keys b
expect '★  Paris, FR' "bookmark Paris"
keys q
wait_for 'e2e\$' 5 || true
# The first frame comes from the cache: with the service unreachable, the rows still have weather.
run_in_shell "SKYCAST_OPEN_METEO_URL=http://127.0.0.1:1 '$bin'"
expect '★  Paris, FR +[0-9]{2}:[0-9]{2} +☂ Light rain +12°' "cached weather shows with the service down"
keys q
wait_for 'e2e\$' 5 || true

current=show
out=$(env -i PATH="$PATH" HOME="$work/show" LANG=C.UTF-8 SKYCAST_OPEN_METEO_URL="http://127.0.0.1:$port" "$bin" show "Paris, FR" Tokyo 2>"$work/err"); status=$?
if [ $status = 0 ] && echo "$out" | grep -q 'Paris, FR' && echo "$out" | grep -q 'Tokyo, JP'; then ok "show prints the cities (exit 0)"; else not_ok "show: exit $status: $out $(cat "$work/err")"; fi
out=$(env -i PATH="$PATH" HOME="$work/show" SKYCAST_OPEN_METEO_URL="http://127.0.0.1:$port" "$bin" show --json "Paris, FR" 2>/dev/null)
if echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[0]["name"]=="Paris" and d[0]["current"]["temperature"]==11.5 and len(d[0]["daily"])>=5'; then ok "show --json"; else not_ok "show --json: $out"; fi
env -i PATH="$PATH" HOME="$work/show" SKYCAST_OPEN_METEO_URL="http://127.0.0.1:$port" "$bin" show "Paris, FR" Qxqxqxq >/dev/null 2>"$work/err"; status=$?
if [ $status = 1 ] && grep -q "unknown city 'Qxqxqxq'" "$work/err"; then ok "an unknown city is reported (exit 1)"; else not_ok "unknown city: exit $status $(cat "$work/err")"; fi
env -i PATH="$PATH" HOME="$work/show" SKYCAST_OPEN_METEO_URL="http://127.0.0.1:1" "$bin" show --no-cache --timeout 2 "Paris, FR" >/dev/null 2>"$work/err"; status=$?
if [ $status = 1 ] && grep -q 'cannot reach Open-Meteo' "$work/err"; then ok "an unreachable service is reported (exit 1)"; else not_ok "unreachable: exit $status $(cat "$work/err")"; fi
"$bin" find "$(printf 'Z\xffrich\xfe')" >/dev/null 2>"$work/err"; status=$?
if [ $status = 1 ] && grep -q "no city matches" "$work/err"; then ok "invalid UTF-8 in argv is a clear answer"; else not_ok "invalid UTF-8: exit $status $(cat "$work/err")"; fi
"$bin" find "" >/dev/null 2>"$work/err"; status=$?
if [ $status = 2 ] && grep -q "type part of a city name" "$work/err"; then ok "an empty query is a usage error"; else not_ok "empty query: exit $status"; fi
echo | "$bin" --demo >/dev/null 2>"$work/err"; status=$?
if [ $status = 1 ] && grep -q "needs a terminal" "$work/err"; then ok "without a terminal the table says so"; else not_ok "no terminal: exit $status $(cat "$work/err")"; fi
out=$(env -i PATH="$PATH" HOME="$work/show" TERM=dumb LANG=C.UTF-8 "$bin" show --demo Reykjavik 2>&1); status=$?
if [ $status = 0 ] && echo "$out" | grep -q 'Reykjav' && ! echo "$out" | grep -q '°'; then ok "TERM=dumb prints ASCII"; else not_ok "TERM=dumb show: $out"; fi
"$bin" show --units kelvin Paris >/dev/null 2>&1; status=$?
if [ $status = 2 ]; then ok "a usage error exits 2"; else not_ok "usage error exit $status"; fi

echo
echo "e2e: $passed passed, $failed failed"
[ $failed = 0 ]
