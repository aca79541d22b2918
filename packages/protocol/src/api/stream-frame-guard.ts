import type { StreamFrame } from './stream-frame.ts';

// Apart from the schema (no TypeBox here): a browser client that tells frames apart does not load the wire model.
/** Whether a frame read from an event socket is a stream frame (not an event). */
export function isStreamFrame(frame: unknown): frame is StreamFrame {
  return (
    typeof frame === 'object' && frame !== null && (frame as { type?: unknown }).type === 'stream' && !('kind' in frame)
  );
}
