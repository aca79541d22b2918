import { type Static, Type } from '@sinclair/typebox';
import { type LicenseState, type LicenseVerdict, licenseStateAt } from './verify.ts';

/**
 * The license as `/server_info` reports it (a route without authentication): neither the license id (the chart
 * registry's password) nor the licensee's e-mail is in it.
 */
export const LicenseStatus = Type.Object(
  {
    status: Type.Union(
      [Type.Literal('valid'), Type.Literal('expired'), Type.Literal('invalid'), Type.Literal('none')],
      {
        description: 'none: no license given (community mode); expired and invalid also run in community mode.',
      },
    ),
    reason: Type.Optional(Type.String({ description: 'Why it is not valid.' })),
    warning: Type.Optional(Type.String({ description: 'More users than seats: said, never enforced.' })),
    issuer: Type.Optional(Type.String()),
    seats: Type.Optional(Type.Integer()),
    seats_used: Type.Optional(Type.Integer({ description: 'Users of this install.' })),
    not_before: Type.Optional(Type.String()),
    expires_at: Type.Optional(Type.String()),
    features: Type.Optional(Type.Array(Type.String())),
  },
  { description: 'The license this install was given, verified offline at start against the issuer’s key.' },
);
export type LicenseStatus = Static<typeof LicenseStatus>;

/** The log's methods the monitor writes with (a pino or Fastify logger). */
export interface LicenseLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface LicenseMonitorOptions {
  verdict: LicenseVerdict;
  /** Users of the install (the seats used); none: not counted. */
  countUsers?: () => Promise<number>;
  log?: LicenseLog;
  now?: () => Date;
}

/**
 * The license of a running server: its state at each moment (a license expires while the server runs), the seats
 * used, and one log line each time either changes (at start, then at the first status asked after the change).
 */
export class LicenseMonitor {
  private said: string | undefined;
  private saidSeats = false;

  constructor(private readonly options: LicenseMonitorOptions) {}

  async status(): Promise<LicenseStatus> {
    const state = licenseStateAt(this.options.verdict, (this.options.now ?? (() => new Date()))());
    const used = state.payload ? await this.seatsUsed() : undefined;
    const over = state.payload !== undefined && used !== undefined && used > state.payload.seats;
    this.logChanges(state, used, over);
    const { payload } = state;
    return {
      status: state.status,
      ...(state.reason ? { reason: state.reason } : {}),
      ...(over && payload ? { warning: seatsWarning(used as number, payload.seats) } : {}),
      ...(payload
        ? {
            issuer: payload.issuer,
            seats: payload.seats,
            ...(used !== undefined ? { seats_used: used } : {}),
            not_before: payload.not_before,
            expires_at: payload.expires_at,
            features: payload.features,
          }
        : {}),
    };
  }

  private async seatsUsed(): Promise<number | undefined> {
    // Seats are reported, never enforced: a database that does not answer leaves them out (and /ready says so).
    return this.options.countUsers?.().catch(() => undefined);
  }

  private logChanges(state: LicenseState, used: number | undefined, over: boolean): void {
    const { log } = this.options;
    const key = `${state.status}: ${state.reason ?? ''}`;
    if (log && key !== this.said) {
      this.said = key;
      const { payload } = state;
      const facts = payload ? { licensee: payload.licensee, seats: payload.seats, expires_at: payload.expires_at } : {};
      const license = { status: state.status, ...(state.reason ? { reason: state.reason } : {}), ...facts };
      if (state.status === 'none') log.info({ license }, 'No license given: community mode');
      else if (state.status === 'valid' && payload) {
        const features = payload.features.length > 0 ? payload.features.join(', ') : 'none';
        log.info(
          { license },
          `License valid: ${payload.licensee}, ${payload.seats} seats, until ${payload.expires_at}, features: ${features}`,
        );
      } else log.error({ license }, `License ${state.status}: ${state.reason}; running unlicensed (community mode)`);
    }
    if (log && over && !this.saidSeats && state.payload) {
      log.warn(
        { license: { seats: state.payload.seats, seats_used: used } },
        `License seats exceeded: ${seatsWarning(used as number, state.payload.seats)}`,
      );
    }
    this.saidSeats = over;
  }
}

const seatsWarning = (used: number, seats: number) =>
  `${used} users for ${seats} seats (nobody is refused: the license needs more seats)`;
