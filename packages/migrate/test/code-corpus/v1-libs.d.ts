// The V1 code keeps some calls of its HTTP libraries and frameworks (the ones marked TODO). The corpus
// type-checks the rewritten code strictly against the real SDK packages; these loose declarations stand in
// for the third-party modules, which this repository does not install.
declare module 'axios' {
  export type AxiosInstance = any;
  const axios: any;
  export default axios;
}
declare module 'got' {
  // Typed as far as the calls left on V1 use it (`.json<T>()` takes a type argument).
  interface GotInstance {
    get(url: string): { json<T = unknown>(): Promise<T> };
    post(url: string, options?: unknown): { json<T = unknown>(): Promise<T> };
  }
  const got: { extend(options: unknown): GotInstance };
  export default got;
}
declare module 'ky' {
  // Typed as far as the calls left on V1 use it (`.json<T>()` takes a type argument).
  interface KyInstance {
    get(url: string): { json<T = unknown>(): Promise<T> };
  }
  const ky: { create(options: unknown): KyInstance };
  export default ky;
}
declare module 'node-fetch' {
  // Required by CommonJS code (the order read left on V1 calls what `require` gave).
  const fetch: any;
  export = fetch;
}
declare module 'express' {
  // Generic as Express's is: a handler may type its query (the fourth type argument).
  export interface Request<P = any, ResBody = any, ReqBody = any, ReqQuery = any> {
    params: P;
    body: ReqBody;
    query: ReqQuery;
    res?: ResBody;
  }
  export type Response = any;
  const express: any;
  export default express;
}
declare module 'fastify' {
  export interface FastifyInstance {
    get(path: string, handler: (request: any, reply: any) => unknown): void;
    log: any;
  }
}
declare module 'next/server' {
  export type NextRequest = any;
  export const NextResponse: any;
}
declare module 'nock' {
  const nock: any;
  export default nock;
}
declare module 'msw' {
  export const http: any;
  export const HttpResponse: any;
}
declare module 'msw/node' {
  export const setupServer: any;
}
declare namespace JSX {
  type Element = unknown;
  interface IntrinsicElements {
    [name: string]: Record<string, unknown>;
  }
}
declare module 'dotenv/config' {}
declare module 'dotenv' {
  export function config(options?: unknown): unknown;
}
