import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../../sources/test/support/closed-port.ts';
import { type ObjectStore, ObjectStoreUnavailableError, openObjectStore } from '../../src/objects/index.ts';
import { type TestS3Server, startS3Server } from '../support/s3-server.ts';
import { objectStoreContract } from './contract.ts';

let server: TestS3Server;
beforeAll(async () => {
  server = await startS3Server();
});
afterAll(() => server.stop());

/** A store on the test server's bucket, emptied first: the contract's tests each expect an empty store. */
async function emptyStore(): Promise<ObjectStore> {
  const store = await openS3();
  for (const key of await store.list('')) await store.delete(key);
  return store;
}

function openS3(overrides: Partial<Record<string, string>> = {}): Promise<ObjectStore> {
  const { endpoint, bucket, accessKeyId, secretAccessKey } = server;
  return openObjectStore({
    dataDir: '/nonexistent-unused',
    s3: { endpoint, bucket, accessKeyId, secretAccessKey, ...overrides },
  });
}

objectStoreContract('S3', emptyStore);

async function failure(attempt: () => Promise<unknown>): Promise<Error> {
  const error = await attempt().then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ObjectStoreUnavailableError);
  return error as Error;
}

describe('S3 object store misconfigured', () => {
  it('a missing bucket fails ping and first use, naming bucket and endpoint', async () => {
    const store = await openS3({ bucket: 'no-such-bucket' });
    for (const attempt of [() => store.ping(), () => store.get('k'), () => store.head('k'), () => store.list('')]) {
      const error = await failure(attempt);
      expect(error.message).toBe(`S3 bucket "no-such-bucket" does not exist at ${server.endpoint}`);
    }
    await store.close();
  });

  // s3rver checks the access key id but not a V4 signature: a wrong secret alone goes unnoticed there.
  it('bad credentials fail clearly, never showing the secret key', async () => {
    const secret = 'wr0ng-Secret-K3y/with+chars';
    const store = await openS3({ accessKeyId: 'NOT-A-KEY', secretAccessKey: secret });
    for (const attempt of [() => store.ping(), () => store.put('k', 'x'), () => store.list('')]) {
      const error = await failure(attempt);
      expect(error.message).toMatch(/^S3 at \S+ refused the credentials for bucket "bosun-test" \(HTTP 403\)$/);
      expect(error.message).toContain(server.endpoint);
      expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(secret);
    }
    await store.close();
  });

  it('an endpoint nobody answers at fails clearly', async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    const store = await openS3({ endpoint });
    const error = await failure(() => store.ping());
    expect(error.message).toBe(`S3 at ${endpoint} cannot be reached for bucket "bosun-test": ECONNREFUSED`);
    await store.close();
  });

  it('refuses an endpoint that is not an http(s) URL', async () => {
    for (const endpoint of ['minio:9000', '127.0.0.1:9000', 'ftp://host']) {
      await expect(openS3({ endpoint })).rejects.toThrow(/http:\/\/ or https:\/\/ URL/);
    }
  });

  it('refuses an access key id without its secret, or the other way round', async () => {
    await expect(openS3({ secretAccessKey: '' })).rejects.toThrow(/together/);
    await expect(openS3({ accessKeyId: '' })).rejects.toThrow(/together/);
  });

  it('a store that failed for a missing bucket works once the bucket exists', async () => {
    const store = await openS3({ bucket: 'made-later' });
    await expect(store.ping()).rejects.toThrow(/does not exist/);
    const { S3Client, CreateBucketCommand } = await import('@aws-sdk/client-s3');
    const admin = new S3Client({
      endpoint: server.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    });
    await admin.send(new CreateBucketCommand({ Bucket: 'made-later' }));
    admin.destroy();
    await store.put('k', 'v');
    expect((await store.get('k'))?.toString()).toBe('v');
    await store.close();
  });
});
