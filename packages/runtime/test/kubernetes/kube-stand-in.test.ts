import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAMESPACE, type Wire, startStandIn } from './support/kube-fixture.ts';
import type { KubeStandIn } from './support/kube-stand-in.ts';

/** The stand-in refuses what a real API server refuses: otherwise the backend's tests could not fail. */
describe('the Kubernetes API stand-in', () => {
  let standIn: KubeStandIn;
  const pods = () => `${standIn.url}/api/v1/namespaces/${NAMESPACE}/pods`;
  const call = async (method: string, url: string, body?: unknown, token = 'stand-in-token') => {
    const response = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Wire };
  };
  const pod = (name: string, extra: Wire = {}) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: 'x' } },
    spec: { containers: [{ name: 'c', image: 'i', ...extra }] },
  });

  beforeAll(async () => {
    standIn = await startStandIn();
  });

  afterAll(async () => {
    await standIn?.close();
  });

  it('answers with Status objects: 401, 404, 422 for an object the schema refuses, 409 on a duplicate', async () => {
    expect(await call('GET', pods(), undefined, 'wrong')).toMatchObject({
      status: 401,
      body: { kind: 'Status', reason: 'Unauthorized' },
    });
    expect(await call('GET', `${standIn.url}/api/v1/namespaces/${NAMESPACE}/widgets`)).toMatchObject({
      status: 404,
      body: { kind: 'Status', reason: 'NotFound', code: 404 },
    });
    const invalid = await call('POST', pods(), pod('bad', { ports: [{ containerPort: 'http' }] }));
    expect(invalid).toMatchObject({ status: 422, body: { kind: 'Status', reason: 'Invalid' } });
    expect(invalid.body.message).toMatch(/containerPort must be integer/);
    const badLabel = await call('POST', pods(), {
      ...pod('label'),
      metadata: { name: 'label', labels: { app: 'x'.repeat(64) } },
    });
    expect(badLabel).toMatchObject({ status: 422, body: { reason: 'Invalid' } });
    expect((await call('POST', pods(), pod('Upper'))).status).toBe(422);
    expect((await call('POST', pods(), pod('good'))).status).toBe(201);
    expect(await call('POST', pods(), pod('good'))).toMatchObject({ status: 409, body: { reason: 'AlreadyExists' } });
    expect(await call('POST', `${standIn.url}/api/v1/namespaces/elsewhere/pods`, pod('good'))).toMatchObject({
      status: 404,
      body: { message: 'namespaces "elsewhere" not found' },
    });
  });

  it('refuses a replace of a stale resourceVersion, and streams changes from a resourceVersion', async () => {
    // A ConfigMap: nothing but this test changes it (pods get status updates from the simulated cluster).
    const maps = `${standIn.url}/api/v1/namespaces/${NAMESPACE}/configmaps`;
    const listed = await call('GET', `${maps}?labelSelector=app%3Dx`);
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched', labels: { app: 'x' } } };
    const created = (await call('POST', maps, configMap)).body;
    const from = listed.body.metadata.resourceVersion;
    const replaced = await call('PUT', `${maps}/watched`, {
      ...created,
      metadata: { ...created.metadata, labels: { app: 'x', v: '2' } },
    });
    expect(replaced.status).toBe(200);
    const stale = await call('PUT', `${maps}/watched`, created);
    expect(stale).toMatchObject({ status: 409, body: { reason: 'Conflict' } });
    await call('DELETE', `${maps}/watched`);

    const controller = new AbortController();
    const response = await fetch(`${maps}?watch=true&resourceVersion=${from}&labelSelector=app%3Dx`, {
      headers: { authorization: 'Bearer stand-in-token' },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let text = '';
    while (text.split('\n').filter(Boolean).length < 3) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const events = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Wire);
    expect(events.map(({ type, object }) => [type, object.metadata.name])).toEqual([
      ['ADDED', 'watched'],
      ['MODIFIED', 'watched'],
      ['DELETED', 'watched'],
    ]);
  });
});
