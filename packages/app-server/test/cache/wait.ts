/** Polls `check` until it holds; fails after `timeoutMs` naming what it waited for. */
export async function waitUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
