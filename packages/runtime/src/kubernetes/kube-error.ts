/** A refusal of the Kubernetes API (its `kind: Status`), or its absence (code 0), naming what was asked. */
export class KubeError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'KubeError';
  }
}
