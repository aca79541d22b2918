/** The terminal tool's description as the LLM reads it. */
export function terminalDescription(softTimeoutSeconds: number): string {
  return `Execute a bash command in the terminal within a persistent shell session.

### Command Execution
* One command at a time: you can only execute one bash command at a time. To run several commands in sequence, chain them with \`&&\` or \`;\` in one command (a multi-line command is also run as one unit).
* Persistent session: commands run in one persistent bash session, so the working directory, environment variables and virtual environments persist between commands.
* Output: stdout and stderr are merged. The output ends with the current working directory and the exit code of the command.
* Soft timeout: when a command produces no new output for ${softTimeoutSeconds} seconds, control returns to you with exit code \`-1\` while the command keeps running (see below).
* Shell options: do NOT use \`set -e\`, \`set -eu\` or \`set -euo pipefail\` in the session: a failing command would end the shell. Put such scripts in a file and run the file instead.

### Long-running Commands
* For commands that may run indefinitely (servers, watchers), run them in the background and redirect their output to a file, e.g. \`python3 app.py > server.log 2>&1 &\`.
* For commands that take a long time (installation, builds, tests) or a known fixed time (e.g. \`sleep\`), set the \`timeout\` parameter (in seconds). \`timeout\` is a hard limit: when it expires the command is interrupted with Ctrl-C. With \`timeout\` set, the soft timeout does not apply.
* If a command returns exit code \`-1\`, it hit the soft timeout and is still running. Then you can:
  - send an empty \`command\` (\`""\`) to wait for more output (and the exit code once it finishes);
  - set \`is_input\` to \`true\` and send text (typed followed by Enter) to the standard input of the running process, e.g. an answer to a prompt;
  - set \`is_input\` to \`true\` and send a special key: \`C-c\` (Ctrl-C, interrupt), \`C-d\` (Ctrl-D, end of input), \`C-z\` (Ctrl-Z, suspend), any \`C-<letter>\`, or \`UP\`, \`DOWN\`, \`LEFT\`, \`RIGHT\`, \`HOME\`, \`END\`, \`PGUP\`, \`PGDN\`, \`TAB\`, \`ESC\`, \`BS\`, \`ENTER\`;
  - after \`C-c\`, re-run the command with a longer \`timeout\` to let it run to completion.
* A new command is NOT executed while the previous one is still running: interact with it or interrupt it first.

### Best Practices
* Directory verification: before creating new directories or files, first verify that the parent directory exists and is the correct location.
* Directory management: prefer absolute paths and avoid excessive use of \`cd\`.
* Non-interactive flags: prefer commands that do not prompt (e.g. \`apt-get -y\`, \`npm init -y\`, \`git --no-pager\`).

### Output Handling
* Long outputs are truncated: the beginning and the end are shown, and the complete output is saved to a file whose path is given in the output.

### Terminal Reset
* If the terminal becomes unresponsive, set \`reset\` to \`true\` to start a new shell session (the \`command\`, if any, then runs in the new session). This kills the running processes and loses environment variables, the working directory and other session state. Use it only when the terminal stops responding.`;
}
