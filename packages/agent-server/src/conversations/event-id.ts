import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

const ID_BYTES = 16;
/** Random bytes for ids, drawn in blocks: one call to the system's generator per 256 ids instead of one each. */
const pool = new Uint8Array(ID_BYTES * 256);
let used = pool.length;
/** The last id's time and counter: ids made within one millisecond still sort in the order they were made. */
let lastMsecs = Number.NEGATIVE_INFINITY;
let counter = 0;

/** A new event id: a UUIDv7 (time-ordered, and in creation order within this process). */
export function newEventId(): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const random = pool.subarray(used, used + ID_BYTES);
  used += ID_BYTES;
  const now = Date.now();
  if (now > lastMsecs) {
    lastMsecs = now;
    // A random 31-bit start, as the uuid package does: room to count up within the millisecond.
    counter =
      (((random[6] as number) & 0x7f) << 24) |
      ((random[7] as number) << 16) |
      ((random[8] as number) << 8) |
      (random[9] as number);
  } else {
    counter = (counter + 1) | 0;
    if (counter === 0) lastMsecs++;
  }
  return v7({ random, msecs: lastMsecs, seq: counter });
}
