import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { writingBody } from './body.ts';
import { checkObjectKey, checkObjectPrefix } from './object-key.ts';
import {
  DEFAULT_CONTENT_TYPE,
  type ObjectBody,
  type ObjectHead,
  ObjectKeyError,
  type ObjectStore,
  ObjectStoreClosedError,
  type PutOptions,
} from './object-store.ts';
import { type S3Place, isMissingObject, s3Failure } from './s3-errors.ts';
import { uploadStream } from './s3-upload.ts';

type S3Module = typeof import('@aws-sdk/client-s3');

export interface S3Options {
  /** An S3-compatible server (`BOSUN_S3_ENDPOINT`, e.g. MinIO's `http://minio:9000`); AWS unless given. */
  endpoint?: string;
  bucket: string;
  /** `us-east-1` unless given. */
  region?: string;
  /** Both or neither: without them, the AWS SDK's usual sources (environment, profile, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
}

interface Connected {
  s3: S3Module;
  client: S3Client;
}

/** S3's limit for one DeleteObjects request. */
const DELETE_BATCH = 1000;

/** Objects in an S3 bucket, addressed path-style so that S3-compatible servers work as AWS does. */
export class S3ObjectStore implements ObjectStore {
  private readonly place: S3Place;
  private connected: Promise<Connected> | undefined;
  private closed = false;

  constructor(private readonly options: S3Options) {
    if (!options.bucket) throw new RangeError('The S3 bucket must be named');
    if (options.endpoint && !isHttpUrl(options.endpoint)) {
      throw new RangeError(
        `The S3 endpoint must be an http:// or https:// URL, got ${JSON.stringify(options.endpoint)}`,
      );
    }
    if (Boolean(options.accessKeyId) !== Boolean(options.secretAccessKey)) {
      throw new RangeError('The S3 access key id and secret access key must be given together');
    }
    this.place = {
      bucket: options.bucket,
      endpoint: options.endpoint || `AWS S3 (${this.region})`,
      secretAccessKey: options.secretAccessKey,
    };
  }

  private get region(): string {
    return this.options.region || 'us-east-1';
  }

  put(key: string, body: ObjectBody, options: PutOptions = {}): Promise<void> {
    return writingBody(body, () => this.write(key, body, options));
  }

  private async write(key: string, body: ObjectBody, options: PutOptions): Promise<void> {
    const { s3, client } = await this.connectFor(key);
    const target = { Bucket: this.options.bucket, Key: key, ContentType: options.contentType ?? DEFAULT_CONTENT_TYPE };
    await this.attempt(async () => {
      if (body instanceof Readable) return uploadStream(client, s3, target, body);
      const bytes = typeof body === 'string' ? Buffer.from(body) : body;
      await client.send(new s3.PutObjectCommand({ ...target, Body: bytes, ContentLength: bytes.length }));
    });
  }

  async get(key: string): Promise<Buffer | undefined> {
    const { s3, client } = await this.connectFor(key);
    return this.attempt(async () => {
      const reply = await client.send(new s3.GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      const bytes = await reply.Body?.transformToByteArray();
      return bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : Buffer.alloc(0);
    }, true);
  }

  async getStream(key: string): Promise<Readable | undefined> {
    const { s3, client } = await this.connectFor(key);
    return this.attempt(async () => {
      const reply = await client.send(new s3.GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return (reply.Body as Readable | undefined) ?? Readable.from([]);
    }, true);
  }

  async head(key: string): Promise<ObjectHead | undefined> {
    const { s3, client } = await this.connectFor(key);
    return this.attempt(async () => {
      const reply = await client.send(new s3.HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return { size: reply.ContentLength ?? 0, contentType: reply.ContentType ?? DEFAULT_CONTENT_TYPE };
    }, true);
  }

  async list(prefix: string): Promise<string[]> {
    this.checkOpen();
    checkObjectPrefix(prefix);
    const { s3, client } = await this.connect();
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await this.attempt(() =>
        client.send(new s3.ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: prefix, ContinuationToken })),
      );
      for (const item of page.Contents ?? []) if (item.Key !== undefined) keys.push(item.Key);
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return keys;
  }

  async delete(key: string): Promise<void> {
    const { s3, client } = await this.connectFor(key);
    await this.attempt(() => client.send(new s3.DeleteObjectCommand({ Bucket: this.options.bucket, Key: key })));
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (prefix === '') throw new ObjectKeyError('deletePrefix needs a prefix: it would delete every object');
    const keys = await this.list(prefix);
    const { s3, client } = await this.connect();
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const Objects = keys.slice(start, start + DELETE_BATCH).map((Key) => ({ Key }));
      const reply = await this.attempt(() =>
        client.send(new s3.DeleteObjectsCommand({ Bucket: this.options.bucket, Delete: { Objects, Quiet: true } })),
      );
      const failed = reply.Errors ?? [];
      if (failed.length > 0) {
        const first = failed[0];
        throw s3Failure(
          { name: first?.Code, message: `${failed.length} objects not deleted, ${first?.Key}: ${first?.Message}` },
          this.place,
        );
      }
    }
    return keys.length;
  }

  /** Checks the bucket exists and the credentials are accepted. */
  async ping(): Promise<void> {
    this.checkOpen();
    const connected = await this.connect();
    await this.checkBucket(connected);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const connected = await this.connected?.catch(() => undefined);
    connected?.client.destroy();
  }

  private async connectFor(key: string): Promise<Connected> {
    this.checkOpen();
    checkObjectKey(key);
    return this.connect();
  }

  /**
   * Loads the AWS SDK (only now: it is heavy, and unused without S3) and checks the bucket once, so that a
   * missing bucket is reported as such, not as a missing object. A failed check is tried again on next use.
   */
  private connect(): Promise<Connected> {
    this.connected ??= this.open().catch((error: unknown) => {
      this.connected = undefined;
      throw error;
    });
    return this.connected;
  }

  private async open(): Promise<Connected> {
    const s3 = await import('@aws-sdk/client-s3');
    const { accessKeyId, secretAccessKey, endpoint } = this.options;
    const client = new s3.S3Client({
      endpoint: endpoint || undefined,
      region: this.region,
      forcePathStyle: true,
      credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
      // S3-compatible servers (MinIO, Ceph, older ones) reject the checksums newer SDKs add to every request.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: { connectionTimeout: 5_000 },
    });
    try {
      await this.checkBucket({ s3, client });
    } catch (error) {
      client.destroy();
      throw error;
    }
    return { s3, client };
  }

  private async checkBucket({ s3, client }: Connected): Promise<void> {
    try {
      await client.send(new s3.HeadBucketCommand({ Bucket: this.options.bucket }));
    } catch (error) {
      throw s3Failure(error, this.place, true);
    }
  }

  /** Runs a request; a missing object is `undefined` where `missingIsAbsent`, any other failure a clear error. */
  private async attempt<T>(request: () => Promise<T>, missingIsAbsent: true): Promise<T | undefined>;
  private async attempt<T>(request: () => Promise<T>): Promise<T>;
  private async attempt<T>(request: () => Promise<T>, missingIsAbsent = false): Promise<T | undefined> {
    try {
      return await request();
    } catch (error) {
      if (missingIsAbsent && isMissingObject(error)) return undefined;
      throw s3Failure(error, this.place);
    }
  }

  private checkOpen(): void {
    if (this.closed) throw new ObjectStoreClosedError();
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
