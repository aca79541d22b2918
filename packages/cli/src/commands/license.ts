import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  LICENSE_ISSUER,
  LicenseFormatError,
  type LicenseTrust,
  decodeLicense,
  licenseStateAt,
  verifyLicense,
} from '@bosun/app-server';
import type { Command, CommandIO } from '../command.ts';

const USAGE = `Usage: bosun license inspect FILE [--public-key KEY [--issuer NAME]]

Prints a license file's header and payload and whether this Bosun accepts it, checked offline as \`bosun serve\`
checks BOSUN_LICENSE_FILE at start: valid, expired or invalid, and why. The payload holds the license id, which is
also the chart registry's password: what this prints is as secret as the file.

  --public-key KEY   Check the signature with this Ed25519 public key (raw, base64url: a JWK's x) instead of the
                     issuer key compiled into this build, e.g. to check what an issuer signed. A key that
                     begins with '-' (base64url may) goes as --public-key=KEY.
  --issuer NAME      With --public-key: the issuer the payload must name (default: ${LICENSE_ISSUER.issuer}).

Exit status: 0 valid, 1 expired or invalid, 2 bad options or an unreadable or empty file.`;

export const licenseCommand: Command = {
  name: 'license',
  summary: 'Inspect a license file: its payload and whether this Bosun accepts it (checked offline)',
  usage: USAGE,
  async run(args, io) {
    if (args.includes('--help') || args.includes('-h')) {
      io.stdout.write(`${USAGE}\n`);
      return 0;
    }
    let parsed: ReturnType<typeof parseOptions>;
    try {
      parsed = parseOptions(args);
    } catch (error) {
      io.stderr.write(`bosun license: ${(error as Error).message}\n${USAGE}\n`);
      return 2;
    }
    let text: string;
    try {
      text = await readFile(parsed.file, 'utf8');
    } catch (error) {
      io.stderr.write(`bosun license: cannot read ${parsed.file} (${(error as NodeJS.ErrnoException).code})\n`);
      return 2;
    }
    if (text.trim() === '') {
      io.stderr.write(`bosun license: ${parsed.file} is empty\n`);
      return 2;
    }
    return inspect(text, parsed.trust, io);
  },
};

function parseOptions(args: string[]): { file: string; trust: LicenseTrust } {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { 'public-key': { type: 'string' }, issuer: { type: 'string' } },
  });
  const [action, file, ...rest] = positionals;
  if (action !== 'inspect') throw new Error(action ? `unknown action '${action}'` : 'an action is needed: inspect');
  if (!file) throw new Error('inspect: the license file is needed');
  if (rest.length > 0) throw new Error(`inspect: one file only (got also ${rest.join(' ')})`);
  const key = values['public-key'];
  if (values.issuer !== undefined && key === undefined) throw new Error('--issuer: only with --public-key');
  if (key !== undefined && !/^[A-Za-z0-9_-]{43}$/.test(key)) {
    throw new Error('--public-key: must be a raw Ed25519 public key, base64url (43 characters)');
  }
  const trust = key ? { issuer: values.issuer ?? LICENSE_ISSUER.issuer, publicKeys: [key] } : LICENSE_ISSUER;
  return { file, trust };
}

function inspect(text: string, trust: LicenseTrust, io: CommandIO): number {
  const verdict = verifyLicense(text, trust);
  try {
    const { header, payload } = decodeLicense(text);
    io.stdout.write(`header: ${JSON.stringify(header)}\n`);
    const label = verdict.status === 'signed' ? 'payload' : 'payload (not verified: do not believe it)';
    io.stdout.write(`${label}:\n${JSON.stringify(payload, null, 2)}\n`);
  } catch (error) {
    if (!(error instanceof LicenseFormatError)) throw error;
  }
  const keys = trust === LICENSE_ISSUER ? "this build's issuer key" : 'the key given with --public-key';
  io.stdout.write(`checked against: ${keys} (issuer ${JSON.stringify(trust.issuer)})\n`);
  const state = licenseStateAt(verdict, new Date());
  io.stdout.write(`status: ${state.status}${state.reason ? ` (${state.reason})` : ''}\n`);
  return state.status === 'valid' ? 0 : 1;
}
