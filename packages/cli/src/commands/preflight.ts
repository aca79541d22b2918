import { parseArgs } from 'node:util';
import type { Command } from '../command.ts';
import { chartKubeVersion } from '../install/chart.ts';
import { loadValues } from '../install/load-values.ts';
import { preflightReport } from '../install/preflight/check.ts';
import { runPreflight } from '../install/preflight/run-preflight.ts';

const USAGE = `Usage: bosun preflight [--kubeconfig FILE] [-n NAMESPACE] [-f VALUES.yaml]... [--chart DIR]

Checks a cluster and these values (the chart's defaults with each -f file merged
over them) before installing the Bosun chart, and prints each check as pass,
warn or fail with what to do:
  - the Kubernetes version is within the chart's kubeVersion;
  - the storage classes the values name exist, or a default one does;
  - an ingress controller: the IngressClass of ingress.class, or a default one;
  - nodes have the recommended memory and CPU (warn);
  - the app, auth, runtime API and a sample sandbox host resolve (DNS);
  - with TLS, each certificate Secret is kubernetes.io/tls and covers its host;
  - every Secret of the chart's table and its keys exist (bosun install secrets);
  - an external database accepts TCP connections at host:port.

Options:
  --kubeconfig FILE    the cluster (default: $KUBECONFIG, ~/.kube/config)
  -n, --namespace N    the release namespace (default bosun)
  -f, --values FILE    a values file (repeatable; later files win)
  --chart DIR          the chart's directory (default: this installation's)

Exit status: 0 when nothing failed (warnings allowed), 1 when a check failed,
2 bad options or values.`;

export const preflightCommand: Command = {
  name: 'preflight',
  summary: 'Check a Kubernetes cluster and chart values before installing Bosun',
  usage: USAGE,
  async run(args, io) {
    let input: Parameters<typeof runPreflight>[0];
    try {
      const { values: options } = parseArgs({
        args,
        options: {
          kubeconfig: { type: 'string' },
          namespace: { type: 'string', short: 'n', default: 'bosun' },
          values: { type: 'string', short: 'f', multiple: true, default: [] },
          chart: { type: 'string' },
        },
      });
      const { dir, values } = loadValues(options.chart, options.values);
      input = {
        values,
        kubeVersion: chartKubeVersion(dir),
        namespace: options.namespace,
        kubeconfig: options.kubeconfig,
      };
    } catch (error) {
      io.stderr.write(`bosun preflight: ${(error as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    const results = await runPreflight(input);
    io.stdout.write(preflightReport(results));
    return results.some((result) => result.outcome === 'fail') ? 1 : 0;
  },
};
