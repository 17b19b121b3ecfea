import { isRecord } from '../domain/input.ts';
import { invalidInput } from './error.ts';

/** Checks of untrusted control input (JSON over HTTP, or JavaScript callers): each throws a 400 ControlError. */

export function record(value: unknown, name: string): Record<string, unknown> {
  if (!isRecord(value)) throw invalidInput(`${name} must be an object`);
  return value;
}

/** A finite number in [min, max]; `integer` also refuses fractions. */
export function number(
  value: unknown,
  name: string,
  range: { min: number; max: number; integer?: boolean },
): number {
  const kind = range.integer ? 'an integer' : 'a finite number';
  if (typeof value !== 'number' || !Number.isFinite(value) || (range.integer && !Number.isInteger(value))) {
    throw invalidInput(`${name} must be ${kind} from ${range.min} to ${range.max}`);
  }
  if (value < range.min || value > range.max) {
    throw invalidInput(`${name} must be ${kind} from ${range.min} to ${range.max}, not ${value}`);
  }
  return value;
}

export function string(value: unknown, name: string, maxLength: number): string {
  if (typeof value !== 'string') throw invalidInput(`${name} must be a string`);
  if (value.length > maxLength) throw invalidInput(`${name} holds more than ${maxLength} characters`);
  return value;
}

export function boolean(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean') throw invalidInput(`${name} must be true or false`);
  return value;
}

export function oneOf<T extends string | number>(value: unknown, name: string, options: readonly T[]): T {
  const found = options.find((option) => option === value);
  if (found === undefined) {
    throw invalidInput(`${name} must be one of ${options.map((o) => JSON.stringify(o)).join(', ')}`);
  }
  return found;
}

export function array(value: unknown, name: string, maxItems: number): unknown[] {
  if (!Array.isArray(value)) throw invalidInput(`${name} must be an array`);
  if (value.length > maxItems) throw invalidInput(`${name} holds more than ${maxItems} entries`);
  return value;
}

/** `check(value)` when the value is given (not undefined or null), else undefined. */
export function optional<T>(value: unknown, check: (value: unknown) => T): T | undefined {
  return value === undefined || value === null ? undefined : check(value);
}

/** Refuses fields the method does not take, so a typo is not silently ignored. */
export function onlyKeys(value: Record<string, unknown>, name: string, keys: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!keys.includes(key))
      throw invalidInput(`${name}.${key} is not a field (expected ${keys.join(', ')})`);
  }
}

/** An http or https URL. */
export function httpUrl(value: unknown, name: string, maxLength: number): string {
  const text = string(value, name, maxLength);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidInput(`${name} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidInput(`${name} must be http or https`);
  return text;
}
