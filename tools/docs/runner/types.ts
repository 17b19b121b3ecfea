/** What the build hands the in-page runner for one runnable sample. */
export interface RunnableSample {
  /** `op:<operationId>` for an operation's SDK sample, `guide:<file>#<n>` for a guide block. */
  id: string;
  /** Heading shown in the panel. */
  title: string;
  /** The operation the sample documents (its main exchange), when it is an operation sample. */
  operationId?: string;
  /** Operations a guide block calls by path (`client.post('/claim-item-issues', …)`), for its inputs. */
  uses?: string[];
  /** The documented success statuses (2xx) of that operation. */
  statuses?: number[];
  /** The sample's module, compiled to a CommonJS function body (TypeScript types removed). */
  js: string;
  /** Names the sample reads from `process.env`. */
  env: string[];
  /** Lines (1-based, inclusive) of the setup part, which the page folds. */
  setup?: [number, number];
}

/** One HTTP request the sample made and the sandbox's answer, as the panel shows it. */
export interface Exchange {
  method: string;
  /** Path after the version segment, with the query string. */
  path: string;
  /** The operation this request is, found from the method and the path. */
  operationId?: string;
  status: number;
  /** Rate-limit headers, Retry-After and Content-Type, as sent. */
  headers: [string, string][];
  requestBody?: string;
  responseBody?: string;
  /** Sandbox time of the request (ms since the epoch). */
  at: number;
}

export interface ErrorView {
  name: string;
  message: string;
  /** Fields of an SDK error worth showing (status, code, operation, retryAfter…). */
  fields: [string, string][];
}

export type RunEvent =
  | { kind: 'step'; text: string }
  | { kind: 'exchange'; exchange: Exchange }
  | { kind: 'console'; level: 'log' | 'info' | 'warn' | 'error'; text: string }
  | { kind: 'error'; error: ErrorView };

export interface RunResult {
  ok: boolean;
  events: RunEvent[];
  error?: ErrorView;
  /** Values the sample read from `process.env`. */
  env: [string, string][];
  ms: number;
}
