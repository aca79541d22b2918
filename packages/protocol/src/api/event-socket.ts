/**
 * The close codes of an event socket (`/sockets/events/{conversation_id}`), the same on both servers so one
 * client follows both: each is final, a client does not reconnect after it.
 */
export const CLOSE_AUTH_FAILED = 4001;
export const CLOSE_NOT_FOUND = 4004;
export const CLOSE_INVALID_REQUEST = 4022;

/** How a client asks an event socket for the events stored before it connected. */
export interface ReplayQuery {
  /** `all`: every stored event first. */
  resend_mode?: string;
  /** The older spelling of `resend_mode=all`. */
  resend_all?: string;
  /** Only the stored events after this one (exclusive): a resume cursor. */
  after_event_id?: string;
}
