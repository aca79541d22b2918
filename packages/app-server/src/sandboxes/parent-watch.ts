/**
 * Code the sandbox's Node process runs first (`--import` of a data: URL, so it needs no file that a bundle could
 * lose): its standard input is a pipe from the app, and when the app ends, however it ends (kill -9 included),
 * the pipe's end is read and the sandbox stops itself as on SIGTERM. The pipe is unref'd: it never keeps a
 * stopping sandbox alive.
 */
const WATCH_PARENT = [
  "const stop = () => process.kill(process.pid, 'SIGTERM');",
  "process.stdin.on('end', stop);",
  "process.stdin.on('error', stop);",
  'process.stdin.resume();',
  'process.stdin.unref();',
].join('\n');

export const WATCH_PARENT_IMPORT = `data:text/javascript,${encodeURIComponent(WATCH_PARENT)}`;
