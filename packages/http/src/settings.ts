import { Type } from '@sinclair/typebox';

/**
 * The settings every Bosun HTTP service starts with, for its configuration schema: the address and port it
 * listens on and its data directory (each service its own default port, and its own word on what it keeps).
 */
export function serviceSettings(defaultPort: number, dataDirDescription: string) {
  return {
    host: Type.String({ minLength: 1, default: '127.0.0.1', description: 'Address to listen on.' }),
    port: Type.Integer({
      minimum: 0,
      maximum: 65535,
      default: defaultPort,
      description: 'Port to listen on (0: any free port).',
    }),
    data_dir: Type.String({ minLength: 1, default: '.bosun', description: dataDirDescription }),
  };
}

/** The `log_level` setting of a Bosun HTTP service. */
export function logLevelSetting() {
  return Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
    { default: 'info', description: 'Least severe level of the structured (JSON) logs on standard output.' },
  );
}
