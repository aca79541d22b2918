/** A sandbox as the app's API answers it (`exposed_urls`, `session_api_key`). */
export interface SandboxWire {
  id: string;
  session_api_key: string | null;
  exposed_urls: { name: string; url: string }[] | null;
}

const agentUrl = (sandbox: SandboxWire) => {
  const url = sandbox.exposed_urls?.[0]?.url;
  if (!url || !sandbox.session_api_key) throw new Error(`sandbox ${sandbox.id} does not run`);
  return url;
};

/** Runs `command` inside the sandbox through its own agent server (`/api/bash/execute_bash_command`). */
export async function shell(sandbox: SandboxWire, command: string): Promise<{ stdout: string; stderr: string }> {
  const response = await fetch(`${agentUrl(sandbox)}/api/bash/execute_bash_command`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-session-api-key': sandbox.session_api_key as string },
    body: JSON.stringify({ command, timeout: 20 }),
  });
  if (!response.ok) throw new Error(`bash answered ${response.status}: ${await response.text()}`);
  const output = (await response.json()) as { stdout: string | null; stderr: string | null };
  return { stdout: output.stdout ?? '', stderr: output.stderr ?? '' };
}

/** Its agent server's answer to an authenticated call with `key`. */
export async function agentStatus(sandbox: SandboxWire, key: string): Promise<number> {
  const response = await fetch(`${agentUrl(sandbox)}/api/conversations/search`, {
    headers: { 'x-session-api-key': key },
  });
  await response.text();
  return response.status;
}

// The runtime's tests probe the same way.
export { connectProbe } from '../../../runtime/test/support/sandbox-shell.ts';
