/** The parts of busboy 0.3 (which ships no types) the upload route uses. */
declare module 'busboy' {
  import type { IncomingHttpHeaders } from 'node:http';
  import type { Readable, Writable } from 'node:stream';

  interface BusboyOptions {
    headers: IncomingHttpHeaders;
    limits?: { files?: number; fileSize?: number; fields?: number; fieldSize?: number; parts?: number };
  }
  type FileStream = Readable & { truncated?: boolean };
  class Busboy extends Writable {
    constructor(options: BusboyOptions);
    on(event: 'file', listener: (field: string, file: FileStream, filename: string) => void): this;
    on(event: 'finish', listener: () => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
  }
  export default Busboy;
}
