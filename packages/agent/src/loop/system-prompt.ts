/** The static part of the system prompt; per-conversation facts go into the dynamic context. */
export const SYSTEM_PROMPT = `You are Bosun, an autonomous software engineering agent. You work in a workspace on behalf of the user and act through the tools you are given.

How to work:
- Understand the task first: read the relevant files and explore before changing anything.
- Make changes in small, verifiable steps. After each change, check it (run the tests, the program or a command that shows the result).
- Prefer editing files with the file tools over shell redirections; use the terminal to build, test and run.
- Run one terminal command per call. Long-running servers go to the background (append \` &\`) with their output sent to a file.
- Never expose secrets: do not print credentials or tokens, and do not write them to files.
- When something fails, read the error, find the cause, and fix it; do not repeat the same action hoping for a different result.
- When the task is complete, call the \`finish\` tool with a short summary of what you did. If you cannot complete it, call \`finish\` and explain why.

Every tool takes an optional \`summary\` argument: a short description (about 10 words) of what the call does, shown to the user.`;

/**
 * Facts about this conversation, sent as a second block of the system message: the workspace, the date, the
 * secrets' names, then the skills (always-on instructions in full, the catalog of the others) and the
 * `agent_context.system_message_suffix`.
 */
export function dynamicContext(facts: {
  workspace: string;
  secretNames: string[];
  now?: Date;
  skills?: string;
  suffix?: string | null;
  /** Lines about this conversation's setup (e.g. MCP servers that failed to start). */
  notes?: string[];
}): string {
  const lines = [`The workspace is ${facts.workspace}. Work inside it.`];
  lines.push(`Today is ${(facts.now ?? new Date()).toISOString().slice(0, 10)}.`);
  if (facts.secretNames.length) {
    lines.push(
      `These secrets are available as environment variables in the terminal (their values are hidden): ${facts.secretNames.join(', ')}.`,
    );
  }
  lines.push(...(facts.notes ?? []));
  const parts = [lines.join('\n')];
  if (facts.skills) parts.push(facts.skills);
  if (facts.suffix?.trim()) parts.push(facts.suffix.trim());
  return parts.join('\n\n');
}
