import { open } from 'node:fs/promises';

export interface OutStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** What the CLI talks to; `runCli` gets the process's, tests pass their own. */
export interface CliIO {
  stdout: OutStream;
  stderr: OutStream;
  env: Record<string, string | undefined>;
  /** Aborting it stops reading input; in-flight lines finish and the resume state is written. */
  signal?: AbortSignal;
  /** Wraps the transport under the client (tests count requests with it). */
  wrapFetch?: (fetch: FetchFn) => FetchFn;
  /** Used by `--sandbox` instead of creating an embedded sandbox. */
  sandbox?: SandboxLike;
}

export type FetchFn = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

export interface SandboxLike {
  fetch: FetchFn;
  baseUrl: string;
  keys: { primary: string };
  clock: { now(): number; sleep(ms: number, signal?: AbortSignal): Promise<void> };
  seed: { stores: Record<string, string>; storeCodes: Record<string, string> };
  close?: () => void;
}

const MAX_PENDING = 1024 * 1024;

/** A file appended to through a buffer; `flush()` returns once the bytes are written. */
export interface BufferedWriter {
  /** Bytes written, including what is still buffered. */
  readonly bytes: number;
  write(s: string): void;
  flush: () => Promise<void>;
  /** Resolves once the disk has caught up, when more than 1 MB is waiting to be written. */
  backpressure(): Promise<void>;
  close(): Promise<void>;
}

/** Opens `path` for buffered appends (`a`) or a fresh write (`w`). */
export async function openBufferedWriter(path: string, flags: 'a' | 'w'): Promise<BufferedWriter> {
  const fh = await open(path, flags);
  let bytes = (await fh.stat()).size;
  let buffer: string[] = [];
  let buffered = 0;
  let chain: Promise<void> = Promise.resolve();
  let pending = 0;
  const flush = () => {
    if (buffer.length) {
      const data = buffer.join('');
      const n = buffered;
      buffer = [];
      buffered = 0;
      pending += n;
      chain = chain.then(async () => {
        await fh.write(data);
        pending -= n;
      });
    }
    return chain;
  };
  return {
    /** Bytes written, including what is still buffered. */
    get bytes() {
      return bytes;
    },
    write(s: string) {
      buffer.push(s);
      const n = Buffer.byteLength(s);
      bytes += n;
      buffered += n;
      if (buffered >= 64 * 1024) void flush();
    },
    flush,
    /** Resolves once the disk has caught up, when more than 1 MB is waiting to be written. */
    async backpressure() {
      if (pending > MAX_PENDING) await chain;
    },
    async close() {
      await flush();
      await fh.close();
    },
  };
}

export function csvCell(v: unknown): string {
  const s = v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
