import { type Reference, type ReferencePrefix, referencePrefixOf } from '@partner-print/openapi/wire';
import type { ConversionError, ReportEntry } from './types.ts';

/**
 * Whether `value` is a `<prefix>_…` reference. Only the prefix is checked: the 26 opaque characters have
 * no documented alphabet, and V1 exports and callers' maps are not refused over one we assumed.
 */
export function hasPrefix<P extends ReferencePrefix>(prefix: P, value: unknown): value is Reference<P> {
  return typeof value === 'string' && value.length > prefix.length + 1 && referencePrefixOf(value) === prefix;
}

/** Summarises a value for the report: base64 images and long strings are shortened. */
export function summarise(value: unknown, image = false): unknown {
  if (typeof value === 'string') {
    if (image) return `<base64 image, ${value.length} characters>`;
    if (value.length > 120) return `${value.slice(0, 117)}…`;
    return value;
  }
  if (Array.isArray(value)) return `<array of ${value.length}>`;
  if (value !== null && typeof value === 'object') return `<object with ${Object.keys(value).length} fields>`;
  return value;
}

/**
 * Collects the report entries and errors of one conversion. Each method writes one kind of entry, so the
 * rules state what happened to a field in one call.
 */
export class ReportBuilder {
  readonly entries: ReportEntry[] = [];
  readonly errors: ConversionError[] = [];

  /** Copied under its V2 name. */
  mapped(path: string, from: unknown, to: string): void {
    this.entries.push({ path, action: 'mapped', from, to });
  }

  /** Renamed (a V2 name that is not the case conversion of the V1 name). */
  renamed(path: string, from: unknown, to: string, note: string): void {
    this.entries.push({ path, action: 'renamed', from, to, note });
  }

  /** Turned into another V2 value (a looked-up reference, an uploaded image, a number as string). */
  converted(path: string, from: unknown, to: string, value: unknown, note?: string): void {
    this.entries.push({ path, action: 'converted', from, to, value, ...(note ? { note } : {}) });
  }

  /** Left out of the V2 request (`from` is summarised; `image` for base64 images). */
  dropped(path: string, from: unknown, note?: string, image = false): void {
    this.entries.push({
      path,
      action: 'dropped',
      from: summarise(from, image),
      to: null,
      ...(note ? { note } : {}),
    });
  }

  /** Not a V1 field conversion accepts: left out of the V2 request. */
  unknown(path: string, from: unknown, note: string): void {
    this.entries.push({ path, action: 'unknown', from: summarise(from), to: null, note });
  }

  /** Something that keeps the order from being valid. The message does not repeat the path. */
  fail(path: string, code: ConversionError['code'], message: string): void {
    this.errors.push({ path, code, message });
  }

  /** A field that must be a non-empty string: reports and drops anything else. */
  nonEmptyString(path: string, value: unknown): value is string {
    if (typeof value === 'string' && value.length > 0) return true;
    this.fail(path, 'invalid_value', 'Must be a non-empty string.');
    this.dropped(path, value, 'Not a non-empty string.');
    return false;
  }

  /** A field that must be a `<prefix>_…` reference: reports and drops anything else. */
  reference<P extends ReferencePrefix>(path: string, value: unknown, prefix: P): value is Reference<P> {
    if (!this.nonEmptyString(path, value)) return false;
    if (hasPrefix(prefix, value)) return true;
    this.fail(path, 'invalid_reference', `Must be a ${prefix}_ reference.`);
    this.dropped(path, value, `Not a ${prefix}_ reference.`);
    return false;
  }

  /** Appends another builder's entries and errors (orderlines convert concurrently, report in order). */
  append(other: ReportBuilder): void {
    this.entries.push(...other.entries);
    this.errors.push(...other.errors);
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
