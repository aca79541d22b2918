import { ObjectStoreUnavailableError } from './object-store.ts';

/** Which bucket a request was for, to name it in errors; the secret only to make sure no error carries it. */
export interface S3Place {
  bucket: string;
  /** The endpoint as errors name it. */
  endpoint: string;
  secretAccessKey?: string;
}

interface S3Error {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

const CREDENTIAL_ERRORS = new Set(['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'Forbidden']);
const NETWORK_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH']);

function statusOf(error: unknown): number | undefined {
  return (error as S3Error | undefined)?.$metadata?.httpStatusCode;
}

/** A missing object: GET says `NoSuchKey`, HEAD (which has no body) only 404. */
export function isMissingObject(error: unknown): boolean {
  const name = (error as S3Error | undefined)?.name;
  return name === 'NoSuchKey' || (name === 'NotFound' && statusOf(error) === 404);
}

/** A clear error for a failed S3 request, naming bucket and endpoint; `missingBucket` when a 404 means the bucket. */
export function s3Failure(error: unknown, place: S3Place, missingBucket = false): ObjectStoreUnavailableError {
  const { name = 'Error', code, message = String(error) } = (error ?? {}) as S3Error;
  const bucket = JSON.stringify(place.bucket);
  let text: string;
  if (name === 'NoSuchBucket' || (missingBucket && statusOf(error) === 404)) {
    text = `S3 bucket ${bucket} does not exist at ${place.endpoint}`;
  } else if (CREDENTIAL_ERRORS.has(name) || statusOf(error) === 403) {
    // A HEAD reply has no body to name the error: its status is all there is.
    const reason = name === 'Unknown' ? `HTTP ${statusOf(error)}` : name;
    text = `S3 at ${place.endpoint} refused the credentials for bucket ${bucket} (${reason})`;
  } else if ((code && NETWORK_ERRORS.has(code)) || name === 'TimeoutError') {
    text = `S3 at ${place.endpoint} cannot be reached for bucket ${bucket}: ${code ?? name}`;
  } else {
    text = `S3 request to bucket ${bucket} at ${place.endpoint} failed: ${name}: ${message}`;
  }
  return new ObjectStoreUnavailableError(scrubbed(text, place.secretAccessKey));
}

function scrubbed(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join('[secret]') : text;
}
