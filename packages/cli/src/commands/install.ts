import { parseArgs } from 'node:util';
import type { Command } from '../command.ts';
import { appliedReport, applySecrets } from '../install/apply-secrets.ts';
import { Cluster } from '../install/cluster.ts';
import { loadValues } from '../install/load-values.ts';
import { makeSecrets, readGithubAppPem, secretsYaml } from '../install/secret-manifests.ts';
import { requiredSecrets } from '../install/secret-table.ts';

const USAGE = `Usage: bosun install secrets [--namespace N] [-f VALUES.yaml]... [--github-app-pem FILE]
                             [--apply [--kubeconfig FILE]] [--chart DIR]

Makes every Secret the Bosun chart (deploy/helm/bosun) reads with these values
(the chart's defaults, with each -f file merged over them as helm -f does):
random values for keys, passwords and the model proxy's master key (sk-...),
the same value for sandbox-api-key and default-api-key, and placeholders marked
REPLACE-ME for what only you know (provider API keys, the GitHub App's ids, an
external database's password). Prints them as YAML documents separated by ---.

Options:
  -n, --namespace N       the release namespace (default bosun)
  -f, --values FILE       a values file (repeatable; later files win)
  --github-app-pem FILE   the GitHub App's private key, for github-app's private-key
  --apply                 create them through the Kubernetes API instead of printing
                          them; a Secret that exists is left unchanged and named
  --kubeconfig FILE       the cluster for --apply (default: $KUBECONFIG, ~/.kube/config)
  --chart DIR             the chart's directory (default: this installation's)

Exit status: 0 done, 1 the cluster refused or is unreachable, 2 bad options or values.`;

export const installCommand: Command = {
  name: 'install',
  summary: 'Make the Secrets the Kubernetes chart needs: install secrets [--apply]',
  usage: USAGE,
  async run(args, io) {
    const [subcommand, ...rest] = args;
    if (subcommand !== 'secrets') {
      const what = subcommand ? `unknown subcommand '${subcommand}'` : 'no subcommand';
      io.stderr.write(`bosun install: ${what}\n\n${USAGE}\n`);
      return 2;
    }
    let options: ReturnType<typeof parse>;
    let made: ReturnType<typeof makeSecrets>;
    try {
      options = parse(rest);
      const { values } = loadValues(options.chart, options.values);
      const pem = options['github-app-pem'] === undefined ? undefined : readGithubAppPem(options['github-app-pem']);
      made = makeSecrets(requiredSecrets(values), options.namespace, pem);
    } catch (error) {
      io.stderr.write(`bosun install secrets: ${(error as Error).message}\n`);
      return 2;
    }
    if (!options.apply) {
      io.stdout.write(secretsYaml(made));
      const pending = made.filter((secret) => secret.placeholders.length > 0);
      const todo = pending.map(
        ({ manifest, placeholders }) => `${manifest.metadata.name} (${placeholders.join(', ')})`,
      );
      const note = todo.length ? `; replace the REPLACE-ME values of ${todo.join(', ')}` : '';
      io.stderr.write(`${made.length} secrets for namespace ${options.namespace}${note}\n`);
      return 0;
    }
    try {
      const cluster = await Cluster.connect(options.kubeconfig);
      io.stdout.write(appliedReport(options.namespace, await applySecrets(cluster, options.namespace, made)));
      return 0;
    } catch (error) {
      io.stderr.write(`bosun install secrets: ${(error as Error).message}\n`);
      return 1;
    }
  },
};

function parse(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      namespace: { type: 'string', short: 'n', default: 'bosun' },
      values: { type: 'string', short: 'f', multiple: true, default: [] },
      'github-app-pem': { type: 'string' },
      apply: { type: 'boolean', default: false },
      kubeconfig: { type: 'string' },
      chart: { type: 'string' },
    },
  });
  if (values.kubeconfig !== undefined && !values.apply) throw new Error('--kubeconfig is for --apply');
  if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(values.namespace)) {
    throw new Error(`--namespace ${values.namespace}: not a namespace name (lower-case letters, digits and -)`);
  }
  return values;
}
