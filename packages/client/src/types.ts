import type { paths } from '@partner-print/openapi';
import type { Scheduler } from '@partner-print/ratelimit';
import type { Client, ClientPathsWithMethod, FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { RequestOptions } from './core.ts';
import type { RetryOptions } from './transport.ts';

export type Media = `${string}/${string}`;
export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
type RequiredKeysOf<T> = {
  [K in keyof T]: Record<never, never> extends Pick<T, K> ? never : K;
}[keyof T] extends infer R
  ? R extends undefined
    ? never
    : R
  : never;
/** The per-request options of the client, beside openapi-fetch's. */
export interface CallOptions {
  /** This call's per-attempt timeout instead of the client's (0: none). */
  timeoutMs?: number;
  /** This call's retry policy (merged over the client's), or `false` for a single attempt. */
  retry?: RetryOptions | false;
}

// openapi-fetch options that would take a request past the client's rules (the key to another origin).
type Bypass = 'baseUrl' | 'fetch' | 'redirect' | 'window';

/** openapi-fetch's `init` of an operation without the options that bypass the client, plus the client's own. */
export type ClientInit<Params, M extends keyof Params> =
  MaybeOptionalInit<Params, M> extends infer I
    ? I extends undefined
      ? undefined
      : Omit<I, Bypass> & CallOptions
    : never;

/** `Init` where every key `Allowed` does not have is `never`: an unknown option (`singal`) does not compile. */
export type Exact<Init, Allowed> = Init & { [K in Exclude<keyof Init, keyof NonNullable<Allowed>>]: never };

/** The same optional/required rule for the init argument as openapi-fetch's own methods, without unknown keys. */
export type InitParam<Init, Allowed = Init> =
  RequiredKeysOf<Init> extends never ? [Exact<Init, Allowed>?] : [Exact<Init, Allowed>];

/** openapi-fetch's `GET`, `POST`… with the client's options and without unknown keys. */
export type StrictMethod<Paths extends {}, M extends HttpMethod> = <
  Path extends PathsWith<Paths, M>,
  Init extends ClientInit<Paths[Path], M & keyof Paths[Path]>,
>(
  url: Path,
  ...init: InitParam<Init, ClientInit<Paths[Path], M & keyof Paths[Path]>>
) => Promise<MethodResult<Paths, Path, M, Init>>;

/** openapi-fetch's `{ data, error, response }` of an operation. */
export type MethodResult<Paths, Path extends keyof Paths, M extends HttpMethod, Init> =
  Paths[Path] extends Record<M, infer Op extends Record<string | number, unknown>>
    ? FetchResponse<Op, Init, Media>
    : never;

export type PathsWith<Paths extends {}, M extends HttpMethod> = ClientPathsWithMethod<
  Client<Paths, Media>,
  M
>;

/** Like openapi-fetch's `GET`/`POST`, but resolves to `data` and throws a `PartnerPrintError` otherwise. */
export type ThrowingMethod<Paths extends {}, M extends 'get' | 'post'> = <
  Path extends PathsWith<Paths, M>,
  Init extends ClientInit<Paths[Path], M & keyof Paths[Path]>,
>(
  url: Path,
  ...init: InitParam<Init, ClientInit<Paths[Path], M & keyof Paths[Path]>>
) => Promise<ResponseData<Paths, Path, M, Init>>;

export type ResponseData<
  Paths,
  Path extends keyof Paths,
  M extends 'get' | 'post',
  Init = Record<never, never>,
> =
  Paths[Path] extends Record<M, infer Op extends Record<string | number, unknown>>
    ? Exclude<FetchResponse<Op, Init, Media>, { error: unknown }>['data']
    : never;

type GetData<Paths, Path extends keyof Paths> = NonNullable<ResponseData<Paths, Path, 'get'>>;

/** The item type of a list endpoint: the element type of its one array field besides `nextCursor`. */
export type ListItem<Paths, Path extends keyof Paths> = {
  [K in Exclude<keyof GetData<Paths, Path>, 'nextCursor'>]: NonNullable<
    GetData<Paths, Path>[K]
  > extends readonly (infer I)[]
    ? I
    : never;
}[Exclude<keyof GetData<Paths, Path>, 'nextCursor'>];

/** GET paths whose response holds a list: `{ <items>: [...], nextCursor? }`. */
export type ListPaths<Paths extends {}> = {
  [P in PathsWith<Paths, 'get'>]: [ListItem<Paths, P>] extends [never] ? never : P;
}[PathsWith<Paths, 'get'>];

export type DownloadAs = 'bytes' | 'blob' | 'stream';
export interface DownloadOptions<As extends DownloadAs = 'bytes'> {
  /**
   * Default `'bytes'` (a Uint8Array). `'bytes'` and `'blob'` are read by download within the call's `timeoutMs`;
   * a `'stream'` is read by the caller at its pace: its `signal`, not `timeoutMs`, bounds that reading.
   */
  as?: As;
  /** Default true: on 202 wait `Retry-After` and ask again; false returns `{ pending: true, retryAfter }`. */
  wait?: boolean;
  /** When waiting, give up (TimeoutError) after this long. Default 600 000 (10 minutes). */
  maxWaitMs?: number;
}
export interface DownloadedBody {
  bytes: Uint8Array;
  blob: Blob;
  stream: ReadableStream<Uint8Array>;
}
export interface Downloaded<As extends DownloadAs> {
  pending: false;
  data: DownloadedBody[As];
  contentType: string | null;
}
export interface DownloadPending {
  pending: true;
  /** Seconds until the file is expected, from `Retry-After`. */
  retryAfter: number;
}

/** What the upload helpers take: bytes in any of the platform's forms. */
export type UploadData =
  | Uint8Array
  | ArrayBuffer
  | ArrayBufferView
  | Blob
  | ReadableStream<Uint8Array>
  /** A Node.js stream (`fs.createReadStream`) or any async iterable of byte chunks. */
  | AsyncIterable<Uint8Array>;

type Raw = Client<paths, Media>;
export type StrictMethods = { [M in HttpMethod as Uppercase<M>]: StrictMethod<paths, M> };

/** The typed client of both entries: openapi-fetch's methods plus the throwing `get` and `post`. */
export interface PartnerPrintBaseClient extends Omit<Raw, keyof StrictMethods>, StrictMethods {
  /** The rate-limit scheduler beneath the retry layer (`stats()`, `on(event)`), unless there is none. */
  readonly scheduler: Scheduler | undefined;
  /** `GET` that resolves to `data` or throws a `PartnerPrintError`. */
  get: ThrowingMethod<paths, 'get'>;
  /** `POST` that resolves to `data` or throws a `PartnerPrintError` (AmbiguousOutcomeError when a non-repeatable POST may have taken effect). */
  post: ThrowingMethod<paths, 'post'>;
}

/** Per-call options of the helpers that build their own request: `signal`, `headers`, `timeoutMs`, `retry`. */
export type CallInit = RequestOptions;
