import { describe, expect, it } from 'vitest';
import { EXAMPLE, refusal, render } from './support/helm.ts';

const set = (...pairs: string[]) => pairs.flatMap((pair) => ['--set', pair]);

describe.concurrent('values that contradict each other stop the render, naming the keys', () => {
  const cases: [string, string[], string][] = [
    ['ingress without a host', set('ingress.host='), 'ingress.enabled is true but ingress.host is empty'],
    [
      'a sandbox URL pattern without {runtime_id}',
      set('env.RUNTIME_URL_PATTERN=http://sandbox.runtime.bosun.localtest.me'),
      'env.RUNTIME_URL_PATTERN "http://sandbox.runtime.bosun.localtest.me" has no {runtime_id}',
    ],
    [
      'a sandbox URL pattern not under RUNTIME_BASE_URL',
      set('env.RUNTIME_URL_PATTERN=http://{runtime_id}.sandboxes.example.com'),
      'is not under runtime-api.env.RUNTIME_BASE_URL "runtime.bosun.localtest.me"',
    ],
    [
      'a pattern whose separator disagrees with RUNTIME_URL_SEPARATOR',
      set('env.RUNTIME_URL_PATTERN=http://{runtime_id}-runtime.bosun.localtest.me'),
      'sandboxes are at http://{runtime_id}.runtime.bosun.localtest.me',
    ],
    [
      'https sandbox URLs with RUNTIME_DISABLE_SSL true',
      set('env.RUNTIME_URL_PATTERN=https://{runtime_id}.runtime.bosun.localtest.me'),
      'is https but runtime-api.env.RUNTIME_DISABLE_SSL is true',
    ],
    [
      'an external database without a host',
      set('postgresql.enabled=false', 'externalDatabase.user=bosun'),
      'externalDatabase.host or externalDatabase.user is empty',
    ],
    [
      'an external database without a user',
      set('postgresql.enabled=false', 'externalDatabase.host=db.example.com'),
      'externalDatabase.host or externalDatabase.user is empty',
    ],
    [
      'conversation data in a disabled object store',
      set('seaweedfs.enabled=false'),
      'filestore.ephemeral is true (the bundled object store) but seaweedfs.enabled is false',
    ],
    [
      'GitHub login without Keycloak',
      set('github.enabled=true'),
      'github.enabled is true but keycloak.enabled is false',
    ],
    [
      'a runtime API ingress without a host',
      set('runtime-api.ingress.enabled=true'),
      'runtime-api.ingress.host is empty',
    ],
    [
      'sandboxes in the release namespace',
      set('runtime-api.sandbox_namespace=bosun'),
      'runtime-api.sandbox_namespace "bosun" is the release namespace',
    ],
    [
      'a default model the proxy does not serve',
      set('env.LITELLM_DEFAULT_MODEL=gpt-9'),
      'env.LITELLM_DEFAULT_MODEL "gpt-9" is not a model_name of litellm.proxy_config.model_list',
    ],
  ];

  it.each(cases)('%s', async (_name, args, message) => {
    expect(await refusal(args)).toContain(message);
  });

  it('refuses a Kubernetes older than the declared kubeVersion', async () => {
    expect(await refusal(['--kube-version', '1.28.0'])).toContain('chart requires kubeVersion: >=1.29.0-0');
  });

  it('accepts https sandboxes once RUNTIME_DISABLE_SSL is false (a boolean or the string OpenHands used)', async () => {
    for (const value of ['false', '"false"']) {
      const args = [
        ...set('env.RUNTIME_URL_PATTERN=https://{runtime_id}.runtime.bosun.localtest.me'),
        value === 'false' ? '--set' : '--set-string',
        'runtime-api.env.RUNTIME_DISABLE_SSL=false',
      ];
      expect((await render(args)).length).toBeGreaterThan(0);
    }
  });
});

describe.concurrent('values.schema.json', () => {
  it('accepts the default values and the production example', async () => {
    expect((await render()).length).toBeGreaterThan(0);
    expect((await render(['-f', EXAMPLE])).length).toBeGreaterThan(0);
  });

  const broken: [string, string[], string][] = [
    ['a host that is not a hostname', set('ingress.host=Bosun_Example'), "'/ingress/host'"],
    ['a runtime API URL that is not a URL', set('sandbox.apiHostname=runtime-api'), "'/sandbox/apiHostname'"],
    [
      'RUNTIME_DISABLE_SSL neither true nor false',
      ['--set-string', 'runtime-api.env.RUNTIME_DISABLE_SSL=yes'],
      'RUNTIME_DISABLE_SSL',
    ],
    [
      'a base URL with a scheme',
      set('runtime-api.env.RUNTIME_BASE_URL=https://runtime.example.com'),
      'RUNTIME_BASE_URL',
    ],
    [
      'a key the chart does not read (OpenHands docs: .hostname)',
      set('runtime-api.ingress.hostname=x.example.com'),
      'hostname',
    ],
    ['no replicas', set('replicas=0'), "'/replicas'"],
    ['an unknown pull policy', set('image.pullPolicy=Sometimes'), "'/image/pullPolicy'"],
    ['a digest that is not sha256', set('image.digest=md5:abc'), "'/image/digest'"],
    ['a separator other than . or -', set('runtime-api.env.RUNTIME_URL_SEPARATOR=_'), 'RUNTIME_URL_SEPARATOR'],
    [
      'a provider key written into the values instead of os.environ/VAR',
      set(
        'litellm.proxy_config.model_list[0].model_name=m',
        'litellm.proxy_config.model_list[0].litellm_params.model=openai/gpt-4o',
        'litellm.proxy_config.model_list[0].litellm_params.api_key=sk-live-123',
      ),
      'api_key',
    ],
  ];

  it.each(broken)('refuses %s', async (_name, args, where) => {
    const message = await refusal(args);
    expect(message).toContain("values don't meet the specifications of the schema");
    expect(message).toContain(where);
  });
});
