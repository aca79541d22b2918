import { connect } from 'node:net';
import type { InstallValues } from '../install-values.ts';
import { type CheckResult, fail, pass, within } from './check.ts';

/** With an external database, its host:port accepts a TCP connection (from here: the cluster may see it otherwise). */
export async function databaseCheck(values: InstallValues, timeoutMs: number): Promise<CheckResult[]> {
  if (values.postgresql.enabled) return [];
  const { host, port } = values.externalDatabase;
  const check = `external database ${host}:${port}`;
  try {
    await within(timeoutMs, `connecting to ${host}:${port}`, tcpConnect(host, port));
    return [pass(check, 'accepts connections')];
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    const fix =
      'check externalDatabase.host and .port, that the server runs, and that firewalls let the cluster (and this machine) reach it';
    return [fail(check, `cannot connect (${why})`, fix)];
  }
}

function tcpConnect(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', (error) => {
      socket.destroy();
      reject(error);
    });
    // An answer that never comes: `within` gives up, and the socket must not keep the process alive.
    socket.unref();
  });
}
