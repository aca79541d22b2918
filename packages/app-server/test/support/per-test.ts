import { afterEach } from 'vitest';

/**
 * `fresh()` for the tests of the `describe` that calls it: opens one more with `open`; after each test, whatever that
 * test opened is disposed of with `dispose`.
 */
export function openedPerTest<T>(open: () => Promise<T>, dispose: (opened: T) => Promise<unknown>): () => Promise<T> {
  let opened: T[] = [];
  afterEach(async () => {
    await Promise.all(opened.map(dispose));
    opened = [];
  });
  return async () => {
    const one = await open();
    opened.push(one);
    return one;
  };
}
