import { operands } from '../command-options.ts';
import type { SecurityRisk } from '../risk.ts';

/** Containers (docker, podman) and infrastructure as code (terraform, pulumi): destroying is HIGH. */

export function containerRisk(args: string[]): SecurityRisk {
  const sub = operands(args, [
    '-H',
    '--host',
    '--context',
    '-c',
    '--config',
    '-f',
    '--file',
    '-p',
    '--project-name',
  ])[0];
  if (sub === undefined) return 'LOW';
  if (
    [
      'ps',
      'images',
      'logs',
      'inspect',
      'version',
      'info',
      'stats',
      'top',
      'history',
      'search',
      'port',
      'diff',
      'events',
      'config',
      'ls',
    ].includes(sub)
  ) {
    return 'LOW';
  }
  const escapes = args.some(
    (arg, index) =>
      arg === '--privileged' ||
      /^--(pid|net|network|ipc|userns)=host$/.test(arg) ||
      /^(\/|\/var\/run\/docker\.sock)(:|$)/.test(
        args[index - 1] === '-v' || args[index - 1] === '--volume' ? arg : '',
      ) ||
      /^--volume=\/(:|var\/run\/docker\.sock)/.test(arg),
  );
  return escapes ? 'HIGH' : 'MEDIUM';
}

export function infrastructureRisk(args: string[]): SecurityRisk {
  const sub = operands(args, ['-chdir', '--cwd', '-s', '--stack'])[0] ?? '';
  if (
    sub === 'destroy' ||
    args.includes('-destroy') ||
    (sub === 'state' && ['rm', 'delete'].includes(operands(args)[1] ?? ''))
  ) {
    return 'HIGH';
  }
  if (
    [
      'plan',
      'validate',
      'fmt',
      'show',
      'output',
      'version',
      'providers',
      'graph',
      'console',
      'preview',
      'state',
    ].includes(sub)
  ) {
    return 'LOW';
  }
  return sub ? 'MEDIUM' : 'LOW';
}
