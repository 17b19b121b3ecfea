/** What the control API throws: an HTTP status and a code, served as `{ code, message }` under `/_sandbox`. */
export class ControlError extends Error {
  constructor(
    readonly status: 400 | 404 | 409 | 413 | 422,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ControlError';
  }
}

/** A control input that is not what the method takes: 400 `invalid_request`. */
export const invalidInput = (message: string): ControlError =>
  new ControlError(400, 'invalid_request', message);
