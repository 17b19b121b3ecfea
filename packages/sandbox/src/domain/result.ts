/** The one result style of the domain layer: `ok` with a value, or `refused` with the answer's status and code. */
export type RefusalStatus = 400 | 404 | 409 | 410 | 413 | 415 | 422 | 429;

export interface Refusal {
  kind: 'refused';
  status: RefusalStatus;
  code: string;
  message: string;
  /** Seconds, for a refusal that says when to try again (429). */
  retryAfter?: number;
}

export interface Ok<T> {
  kind: 'ok';
  value: T;
}

export type Result<T> = Ok<T> | Refusal;

export const ok = <T>(value: T): Ok<T> => ({ kind: 'ok', value });

export const refused = (code: string, message: string, status: RefusalStatus = 422): Refusal => ({
  kind: 'refused',
  status,
  code,
  message,
});
