import { readFile } from 'node:fs/promises';

/** Where a secret setting's file may be named: `BOSUN_<KEY>_FILE` and `<key>_file` in the configuration file. */
export interface SecretFileNames {
  env: string;
  key: string;
}

/** A secret's file as named by the environment or the configuration file. */
export interface SecretFileRef {
  source: 'env' | 'file';
  /** Where it was named, for messages: `BOSUN_JWT_SECRET_FILE` or `<config>: jwt_secret_file`. */
  where: string;
  path: unknown;
}

/**
 * The names of a secret setting's file, unless the schema has a setting of that name already (the runtime's own
 * `runtime_api_key_file`, read by the server itself): Kubernetes mounts Secrets as files, not variables.
 */
export function secretFileNames(key: string, env: string, keys: ReadonlySet<string>): SecretFileNames | undefined {
  const fileKey = `${key}_file`;
  return keys.has(fileKey) ? undefined : { env: `${env}_FILE`, key: fileKey };
}

/** The file named for a secret, the environment's over the configuration file's (as for every setting). */
export function secretFileRef(
  names: SecretFileNames,
  env: Record<string, string | undefined>,
  file: { path: string; values: Record<string, unknown> } | undefined,
): SecretFileRef | undefined {
  const fromEnv = env[names.env]?.trim();
  if (fromEnv) return { source: 'env', where: names.env, path: fromEnv };
  if (file && names.key in file.values) {
    return { source: 'file', where: `${file.path}: ${names.key}`, path: file.values[names.key] };
  }
  return undefined;
}

/**
 * The secret in the file `ref` names, without one trailing newline (what `echo` or an editor adds); or why it
 * cannot be used, naming the setting and the path, never the content.
 */
export async function readSecretFile(key: string, ref: SecretFileRef): Promise<{ text: string } | { problem: string }> {
  if (typeof ref.path !== 'string' || ref.path.trim() === '') {
    return { problem: `${ref.where}: must be the path of a file holding ${key}` };
  }
  let text: string;
  try {
    text = await readFile(ref.path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    return { problem: `${key}: cannot read ${ref.path}, named by ${ref.where} (${code})` };
  }
  const secret = text.replace(/\r?\n$/, '');
  if (secret.trim() === '') return { problem: `${key}: ${ref.path}, named by ${ref.where}, is empty` };
  return { text: secret };
}
