package remote

import (
	"strconv"
	"strings"
)

// The remote side is three small POSIX sh programs, sent as words of the
// one command line ssh hands to the account's shell. Each is written below
// on several lines for reading and sent as one line (oneLine), so that a
// csh or tcsh login shell can parse the command too; every statement ends
// in ; or a keyword, and no line is a comment.
//
// Nothing here writes to stdout but the agent: stdout is the protocol.
// What the scripts have to say goes to stderr, on lines that start with
// markerPrefix (see markers.go).

// markerPrefix starts every line the remote scripts write to stderr.
const markerPrefix = "knightcode-remote:"

// markerFunction defines m, which writes its arguments to stderr as one
// marker line; newlines in them (a folder's name can hold one) become
// \001 so that the line stays one line.
const markerFunction = `
p=` + markerPrefix + `; nl=$(printf '\nx'); nl=${nl%x};
m() { s=$*; case $s in *"$nl"*) s=$(printf '%s' "$s" | tr '\n' '\001') ;; esac; printf '%s %s\n' "$p" "$s" >&2; };
`

// scriptName is $0 of the remote scripts, as ps and error messages show it.
const scriptName = "knightcode-remote"

// loginHop runs the script $1 under the account's login shell, with the
// remaining words as its arguments after ("$1", "login"): the script sees
// the PATH and variables a terminal login sets up, as an agent installed
// with npm needs. The login shell's stdin is /dev/null and its stdout goes
// to stderr, so a profile that reads or prints cannot touch the protocol;
// the real stdin and stdout come back for the script through fds 3 and 4.
// A login shell that is not a POSIX shell (fish, csh) is not used: the
// script then runs with the session's plain environment, told so by
// "plain".
const loginHop = `
s=$1; shift;
case ${SHELL##*/} in
sh|bash|zsh|dash|ksh|ksh93|mksh|oksh|loksh|pdksh|ash|yash|posh) l=$SHELL ;;
*) l= ;;
esac;
if [ -n "$l" ] && [ -x "$l" ]; then
exec "$l" -l -c 'exec /bin/sh -c "$0" ` + scriptName + ` "$0" login "$@" <&3 >&4 3<&- 4>&-' "$s" "$@" 3<&0 4>&1 </dev/null >&2;
fi;
exec /bin/sh -c "$s" ` + scriptName + ` "$s" plain "$@"
`

// agentScript starts the agent. Its arguments: itself, how it was started
// (login, interactive or plain), the folder, the agent (empty: look for
// knightcode, then pi), the grace in seconds, the action (run; probe: stop
// after saying which agent it found; help: print the agent's --help), then
// the agent's argv after its name (--mode rpc and the rest).
//
// It cds into the folder ("~" and "~/…" are the home folder, a relative
// one is taken from there) and finds the agent on PATH; when it is not on a
// login shell's PATH it tries once more in an interactive login shell,
// where nvm and the like usually put themselves. It says on stderr which
// agent it found and how, and the pids it started.
//
// The agent's stdin is a FIFO fed by a relay (cat) from the connection, and
// the script waits for the agent. Its pid is reported by the shell that then
// execs it, so the line is on stderr before the agent can answer anything. When the connection's stdin ends — the
// app closed it, or sshd went away with the connection — the agent reads
// EOF; one that is still running grace seconds later gets SIGTERM, and one
// second after that SIGKILL. Without a FIFO (no writable temp folder) the
// agent runs directly on the connection, and says so. When the agent has
// ended, whatever is left in the session's process group (the relay, tools
// the agent left behind) is terminated, and the script exits with the
// agent's status, which ssh passes on.
const agentScript = `
self=$1 how=$2 dir=$3 agent=$4 grace=$5 action=$6; shift 6;
dir0=$dir agent0=$agent;
` + markerFunction + `
unset CDPATH;
cd "${HOME:-/}" 2>/dev/null;
case $dir in "~") dir=$HOME ;; "~/"*) dir=$HOME/${dir#"~/"} ;; /*) ;; ?*) dir=${HOME%/}/$dir ;; esac;
if [ -n "$dir" ]; then
if [ ! -d "$dir" ]; then m error folder-missing: there is no folder "$dir"; exit 1; fi;
cd -P "$dir" 2>/dev/null || { m error folder-denied: cannot enter the folder "$dir"; exit 1; };
fi;
case $how in login) w="a login shell's PATH" ;; interactive) w="an interactive login shell's PATH" ;; *) w="the PATH (the login shell $SHELL is not a POSIX shell, so it was not used)" ;; esac;
found=;
case $agent in "~") agent=$HOME ;; "~/"*) agent=$HOME/${agent#"~/"} ;; esac;
case $agent in
"") for a in knightcode pi; do f=$(command -v "$a" 2>/dev/null); case $f in /*) agent=$f; found="found $a on $w"; break ;; esac; done ;;
*/*) if [ -e "$agent" ]; then found="using $agent as given"; fi ;;
*) f=$(command -v "$agent" 2>/dev/null); case $f in /*) found="found $agent on $w"; agent=$f ;; esac ;;
esac;
if [ -z "$found" ] && [ "$how" = login ]; then
exec "$SHELL" -i -l -c 'exec /bin/sh -c "$0" ` + scriptName + ` "$0" interactive "$@" <&3 >&4 2>&5 3<&- 4>&- 5>&-' "$self" "$dir0" "$agent0" "$grace" "$action" "$@" 3<&0 4>&1 5>&2 </dev/null >/dev/null 2>&1;
fi;
if [ -z "$found" ]; then
if [ -z "$agent0" ]; then m error agent-not-found: neither knightcode nor pi is on "$w": "$PATH";
else m error agent-not-found: "$agent0" is not there "(looked on $w: $PATH)"; fi;
exit 1;
fi;
if [ ! -f "$agent" ] || [ ! -x "$agent" ]; then m error agent-not-executable: "$agent" is not an executable file; exit 1; fi;
m "$found";
m agent "$agent";
if [ "$action" = probe ]; then printf '%s\0' "$PWD"; exit 0; fi;
if [ "$action" = help ]; then exec "$agent" --help </dev/null 2>&1; fi;
t=$(mktemp -d "${TMPDIR:-/tmp}/knightcode-remote.XXXXXX" 2>/dev/null) && mkfifo "$t/in" 2>/dev/null || {
if [ -n "$t" ]; then rm -rf "$t"; fi;
m warning no-watchdog: no FIFO could be made in "${TMPDIR:-/tmp}": the agent runs without a watchdog, and one that ignores the end of its input outlives the connection;
m started pid "$$" group "$$";
exec "$agent" "$@";
};
exec 3<&0;
/bin/sh -c 'printf "%s started pid %s group %s\n" "$1" "$$" "$2" >&2; shift 2; exec "$@"' ` + scriptName + ` "$p" "$$" "$agent" "$@" <"$t/in" 3<&- & pid=$!;
( trap 'kill $c $z 2>/dev/null; exit 0' TERM; cat <&3 >"$t/in" & c=$!; wait $c; sleep "$grace" & z=$!; wait $z; kill -TERM "$pid" 2>/dev/null; sleep 1 & z=$!; wait $z; kill -KILL "$pid" 2>/dev/null ) </dev/null >/dev/null 2>&1 &
exec 3<&-;
trap '' PIPE;
wait "$pid"; st=$?;
trap '' TERM; kill -TERM 0 2>/dev/null;
rm -rf "$t";
exit "$st"
`

// oneLine joins a script's lines with spaces.
func oneLine(script string) string {
	var parts []string
	for _, line := range strings.Split(script, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			parts = append(parts, line)
		}
	}
	return strings.Join(parts, " ")
}

// loginCommand is the remote command line that runs script under the
// login hop with args after ("$self", how).
func loginCommand(script string, args ...string) string {
	words := append([]string{oneLine(script)}, args...)
	return "exec /bin/sh -c " + QuoteShell(oneLine(loginHop)) + " " + scriptName + " " + QuoteCommand(words...)
}

// plainCommand is the remote command line that runs script with /bin/sh
// in the session's own environment, args as $1….
func plainCommand(script string, args ...string) string {
	cmd := "exec /bin/sh -c " + QuoteShell(oneLine(script)) + " " + scriptName
	if len(args) > 0 {
		cmd += " " + QuoteCommand(args...)
	}
	return cmd
}

// agentCommand is the remote command line that starts the agent, or with
// action "probe" only finds it.
func agentCommand(dir, agent string, grace int, action string, argv []string) string {
	args := append([]string{dir, agent, strconv.Itoa(grace), action}, argv...)
	return loginCommand(agentScript, args...)
}
