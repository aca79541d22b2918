import { describe, expect, it } from 'vitest';
import { logFormatFor, prettyLogStream } from '../src/log-format.ts';

function pretty(lines: object[]): string {
  let written = '';
  const stream = prettyLogStream({
    write(text: string) {
      written += text;
    },
  });
  for (const line of lines) stream.write(`${JSON.stringify(line)}\n`);
  return written;
}

const TIME = Date.parse('2026-01-02T03:04:05.678Z');

describe('log formats', () => {
  it('auto is pretty on a terminal only; json and pretty are as asked', () => {
    expect(logFormatFor('auto', { write() {}, isTTY: true })).toBe('pretty');
    expect(logFormatFor(undefined, { write() {} })).toBe('json');
    expect(logFormatFor('json', { write() {}, isTTY: true })).toBe('json');
    expect(logFormatFor('pretty', { write() {} })).toBe('pretty');
  });

  it('writes a line an entry with its fields as they were logged (redacted stays redacted), an error with its stack', () => {
    expect(
      pretty([
        { level: 40, time: TIME, pid: 1, hostname: 'h', migration: '0001', headers: '[Redacted]', msg: 'careful' },
        { level: 50, time: TIME, err: { message: 'boom', stack: 'Error: boom\n    at here' }, msg: 'failed' },
      ]),
    ).toBe(
      '03:04:05.678 WARN  careful  migration=0001  headers=[Redacted]\n' +
        '03:04:05.678 ERROR failed\n  Error: boom\n      at here\n',
    );
  });

  it('writes a request once, when it completes; a line that is not JSON as it is', () => {
    let written = '';
    const stream = prettyLogStream({
      write(text: string) {
        written += text;
      },
    });
    stream.write(
      `${JSON.stringify({ level: 30, time: TIME, reqId: 'r1', req: { method: 'GET', url: '/x?token=<redacted>' }, msg: 'incoming request' })}\n`,
    );
    stream.write('not json\n');
    stream.write(
      `${JSON.stringify({ level: 30, time: TIME, reqId: 'r1', res: { statusCode: 404 }, responseTime: 1.234, msg: 'request completed' })}\n`,
    );
    expect(written).toBe('not json\n03:04:05.678 INFO  GET /x?token=<redacted> -> 404 in 1.2 ms\n');
  });
});
