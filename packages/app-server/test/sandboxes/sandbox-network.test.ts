import { describe, expect, it } from 'vitest';
import { sandboxNetwork } from '../../src/sandboxes/index.ts';

/** What a new sandbox may reach, decided per start from `sandbox_network` and what it needs. */
describe('sandbox network', () => {
  const needed = ['https://api.openai.com/v1', 'http://127.0.0.1:3000'];

  it('under none: only what it needs (the LLM endpoint, the app), each as host and port', () => {
    expect(sandboxNetwork('none', [], needed)).toEqual({
      mode: 'allow',
      hosts: [
        { host: 'api.openai.com', port: 443 },
        { host: '127.0.0.1', port: 3000 },
      ],
    });
  });

  it('under none with nothing needed: no network at all', () => {
    expect(sandboxNetwork('none', [], [null, undefined, 'not a url', 'file:///etc/passwd'])).toEqual({ mode: 'none' });
  });

  it('under allow: the configured hosts, then what it needs, each once', () => {
    const configured = ['pypi.org:443', '[::1]:8080', 'api.openai.com:443'];
    expect(sandboxNetwork('allow', configured, [...needed, 'http://[::1]:8080/x'])).toEqual({
      mode: 'allow',
      hosts: [
        { host: 'pypi.org', port: 443 },
        { host: '::1', port: 8080 },
        { host: 'api.openai.com', port: 443 },
        { host: '127.0.0.1', port: 3000 },
      ],
    });
  });

  it('under open: the host network as it is', () => {
    expect(sandboxNetwork('open', [], needed)).toEqual({ mode: 'open' });
  });
});
