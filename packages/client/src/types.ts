import type { Client, ClientPathsWithMethod, FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { UploadData } from './upload.ts';

export type Media = `${string}/${string}`;
type RequiredKeysOf<T> = {
  [K in keyof T]: Record<never, never> extends Pick<T, K> ? never : K;
}[keyof T] extends infer R
  ? R extends undefined
    ? never
    : R
  : never;
/** The same optional/required rule for the init argument as openapi-fetch's own methods. */
export type InitParam<Init> =
  RequiredKeysOf<Init> extends never
    ? [(Init & { [key: string]: unknown })?]
    : [Init & { [key: string]: unknown }];

export type PathsWith<Paths extends {}, M extends 'get' | 'post'> = ClientPathsWithMethod<
  Client<Paths, Media>,
  M
>;

/** Like openapi-fetch's `GET`/`POST`, but resolves to `data` and throws a `PartnerPrintError` otherwise. */
export type ThrowingMethod<Paths extends {}, M extends 'get' | 'post'> = <
  Path extends PathsWith<Paths, M>,
  Init extends MaybeOptionalInit<Paths[Path], M & keyof Paths[Path]>,
>(
  url: Path,
  ...init: InitParam<Init>
) => Promise<ResponseData<Paths, Path, M, Init>>;

export type ResponseData<
  Paths,
  Path extends keyof Paths,
  M extends 'get' | 'post',
  Init = Record<never, never>,
> =
  // biome-ignore lint/suspicious/noExplicitAny: the constraint openapi-fetch puts on an operation
  Paths[Path] extends Record<M, infer Op extends Record<string | number, any>>
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
  /** Default `'bytes'` (a Uint8Array). */
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

export type { UploadData };
