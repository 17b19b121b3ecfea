import {
  ALIASES,
  CUSTOM_REFERENCE_MAX_LENGTH,
  ENVIRONMENTS,
  type Environment,
  MAX_INPUT_LENGTH,
  ORDER_NUMBER_PATTERN,
  ORDER_REFERENCE_V2_PATTERN,
  PARAMETERS,
  SERVICE_PARAMETER_NAMES,
  STORE_CODE_PATTERN,
} from './params.ts';
import type {
  CallbackError,
  CallbackWarning,
  OrderReferenceV2,
  OrderUpdatedNotification,
  ParseResult,
} from './types.ts';

// Used only to resolve `/path?query` strings; never fetched.
const RELATIVE_BASE = 'http://callback.invalid';

// C0 controls, DEL, C1 controls, and U+FFFD (what a broken percent-encoding decodes to).
// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
const UNSAFE_TEXT = /[\0-\x1f\x7f-\x9f\ufffd]/;

/**
 * Reads and validates the query of a legacy order-updated callback.
 *
 * Accepts an absolute URL string, a `/path?query` or `?query` string, a `URL` (or any object with a
 * string `href`: Next.js's `NextURL`, another realm's URL), a `URLSearchParams` (of any realm) or a
 * `Request` (only its URL is read). Never throws: anything unusable comes back as
 * `{ ok: false, errors }`.
 */
export function parseOrderUpdatedCallback(input: unknown): ParseResult {
  try {
    const params = toSearchParams(input);
    if ('errors' in params) return { ok: false, errors: params.errors };
    return readParams(params.params);
  } catch {
    // Exotic inputs (throwing getters, proxies) must still not escape as exceptions.
    return {
      ok: false,
      errors: [{ code: 'invalid_input', message: 'The input could not be read as a callback URL.' }],
    };
  }
}

type Converted = { params: URLSearchParams } | { errors: CallbackError[] };

const tooLong: CallbackError = {
  code: 'input_too_long',
  message: `The callback URL is longer than ${MAX_INPUT_LENGTH} characters.`,
};

function tryUrl(text: string, base?: string): URL | undefined {
  try {
    return new URL(text, base);
  } catch {
    return undefined;
  }
}

function fromString(text: string): Converted {
  if (text.length > MAX_INPUT_LENGTH) return { errors: [tooLong] };
  if (text.startsWith('?')) return { params: new URLSearchParams(text) };
  const url = tryUrl(text) ?? (text.startsWith('/') ? tryUrl(text, RELATIVE_BASE) : undefined);
  if (url) return { params: url.searchParams };
  return {
    errors: [
      { code: 'invalid_input', message: 'The input is not a URL, a `/path?query` or a `?query` string.' },
    ],
  };
}

function isRequestLike(input: unknown): input is { url: string } {
  if (typeof input !== 'object' || input === null) return false;
  const candidate = input as { url?: unknown; method?: unknown; headers?: unknown };
  return (
    typeof candidate.url === 'string' &&
    typeof candidate.method === 'string' &&
    typeof candidate.headers === 'object'
  );
}

function toSearchParams(input: unknown): Converted {
  if (typeof input === 'string') return fromString(input);
  // This realm's URLSearchParams, or another's by its tag (whatwg-url's in a jsdom suite), bounded as its pairs
  // are read, then copied (another's) within the bound.
  if ({}.toString.call(input) === '[object URLSearchParams]') {
    let length = 0;
    for (const [name, value] of input as URLSearchParams) {
      length += name.length + value.length + 2;
      if (length > MAX_INPUT_LENGTH) return { errors: [tooLong] };
    }
    return {
      params: input instanceof URLSearchParams ? input : new URLSearchParams(input as URLSearchParams),
    };
  }
  // A URL of this realm or another (whatwg-url's in a jsdom suite), or what a framework hands for one (Next.js's
  // NextURL, a Location): its href.
  const href = (input as { href?: unknown } | null)?.href;
  if (typeof href === 'string') return fromString(href);
  // A Request, of this realm or another fetch implementation (undici copies, framework polyfills).
  if (isRequestLike(input)) return fromString(input.url);
  return {
    errors: [{ code: 'invalid_input', message: 'Expected a URL string, URL, URLSearchParams or Request.' }],
  };
}

interface ReadState {
  errors: CallbackError[];
  warnings: CallbackWarning[];
  service: Map<string, string[]>;
  extra: Array<[string, string]>;
}

// Module-level helpers taking the state, rather than closures made per call: cheaper, and keeps
// transpilers' name-preserving wrappers (esbuild keepNames) off the hot path.
function collect(this: ReadState, value: string, name: string): void {
  if (SERVICE_PARAMETER_NAMES.has(name)) {
    const values = this.service.get(name);
    if (values) values.push(value);
    else this.service.set(name, [value]);
  } else {
    this.extra.push([name, value]);
  }
}

// Problems with `environment` and `order_reference_v2` are errors: without them the notification
// cannot be acted on. Problems with the other parameters are warnings, and the field is left out:
// the handler does not need them, and refusing a notification makes the service retry it forever.
type Severity = 'error' | 'warning';

function flag(state: ReadState, severity: Severity, issue: CallbackError | CallbackWarning): void {
  if (severity === 'error') state.errors.push(issue as CallbackError);
  else state.warnings.push(issue as CallbackWarning);
}

// A repeated name with one value is harmless; with different values we cannot know which one
// the service meant, so the value is not used rather than guessed at.
function single(state: ReadState, name: string, severity: Severity): string | undefined {
  const values = state.service.get(name);
  if (!values) return undefined;
  const first = values[0]!;
  if (values.length > 1) {
    for (let i = 1; i < values.length; i++) {
      if (values[i] !== first) {
        flag(state, severity, {
          code: 'duplicate_parameter',
          parameter: name,
          message: `"${name}" is given ${values.length} times with different values.`,
        });
        return undefined;
      }
    }
    state.warnings.push({
      code: 'duplicate_parameter',
      parameter: name,
      message: `"${name}" is given ${values.length} times (same value).`,
    });
  }
  return first;
}

function withAlias(state: ReadState, canonical: string, alias: string): string | undefined {
  const value = single(state, canonical, 'warning');
  const aliasValue = single(state, alias, 'warning');
  if (value !== undefined) {
    if (aliasValue !== undefined && aliasValue !== value) {
      state.warnings.push({
        code: 'alias_conflict',
        parameter: alias,
        message: `Deprecated "${alias}" differs from "${canonical}"; "${canonical}" is used.`,
      });
    }
    return value;
  }
  if (aliasValue !== undefined && state.service.has(canonical)) return undefined; // canonical was refused
  if (aliasValue !== undefined) {
    state.warnings.push({
      code: 'alias_only',
      parameter: alias,
      message: `Only the deprecated "${alias}" is given; used as "${canonical}".`,
    });
  }
  return aliasValue;
}

function missing(state: ReadState, severity: Severity, name: string): void {
  flag(state, severity, { code: 'missing_parameter', parameter: name, message: `"${name}" is missing.` });
}

function invalid(state: ReadState, severity: Severity, name: string, expected: string): void {
  const suffix = severity === 'warning' ? ' It is left out.' : '';
  flag(state, severity, {
    code: 'invalid_parameter',
    parameter: name,
    message: `"${name}" must be ${expected}.${suffix}`,
  });
}

const STORE_CODE_SHAPE = 'a store code (a letter or digit, then up to 63 letters, digits, "_" or "-")';

const isEnvironment = (value: string): value is Environment =>
  (ENVIRONMENTS as readonly string[]).includes(value);

const isOrderReferenceV2 = (value: string): value is OrderReferenceV2 =>
  ORDER_REFERENCE_V2_PATTERN.test(value);

/** A required parameter (`environment`, `order_reference_v2`): every problem with it is an error. */
function readRequired<V extends string>(
  state: ReadState,
  name: string,
  valid: (value: string) => value is V,
  expected: string,
): V | undefined {
  const raw = single(state, name, 'error');
  if (raw === undefined) {
    if (!state.service.has(name)) missing(state, 'error', name);
    return undefined;
  }
  if (valid(raw)) return raw;
  invalid(state, 'error', name, expected);
  return undefined;
}

/** A store code under its canonical name or alias (`store_code`/`partner_code`, `via_…`). */
function readStoreCode(
  state: ReadState,
  canonical: string,
  alias: string,
  required: boolean,
): string | undefined {
  const raw = withAlias(state, canonical, alias);
  if (raw === undefined) {
    if (required && !state.service.has(canonical) && !state.service.has(alias)) {
      missing(state, 'warning', canonical);
    }
    return undefined;
  }
  if (STORE_CODE_PATTERN.test(raw)) return raw;
  invalid(state, 'warning', state.service.has(canonical) ? canonical : alias, STORE_CODE_SHAPE);
  return undefined;
}

type OrderReferenceFields = Pick<OrderUpdatedNotification, 'orderReference' | 'orderReferenceParts'>;

/** `order_reference`: `<store_code>-<number>`, split on the last "-" since store codes may hold "-". */
function readOrderReference(state: ReadState, storeCode: string | undefined): OrderReferenceFields {
  const name = PARAMETERS.orderReference;
  const raw = single(state, name, 'warning');
  if (raw === undefined) {
    if (!state.service.has(name)) missing(state, 'warning', name);
    return {};
  }
  const dash = raw.lastIndexOf('-');
  const code = raw.slice(0, Math.max(dash, 0));
  const number = raw.slice(dash + 1);
  if (!(dash > 0 && STORE_CODE_PATTERN.test(code) && ORDER_NUMBER_PATTERN.test(number))) {
    invalid(state, 'warning', name, '"<store_code>-<number>" with a valid store code and 1 to 20 digits');
    return {};
  }
  if (storeCode !== undefined && code !== storeCode) {
    state.warnings.push({
      code: 'store_code_mismatch',
      parameter: name,
      message: `The store code in "${name}" differs from "${PARAMETERS.storeCode}". It is left out.`,
    });
    return {};
  }
  return { orderReference: raw, orderReferenceParts: { storeCode: code, number } };
}

/** `custom_reference` (alias `partner_reference`): 1 to 1000 characters without control characters. */
function readCustomReference(state: ReadState): string | undefined {
  const raw = withAlias(state, PARAMETERS.customReference, ALIASES.customReference);
  if (raw === undefined) return undefined;
  if (raw.length > 0 && raw.length <= CUSTOM_REFERENCE_MAX_LENGTH && !UNSAFE_TEXT.test(raw)) return raw;
  const name = state.service.has(PARAMETERS.customReference)
    ? PARAMETERS.customReference
    : ALIASES.customReference;
  invalid(
    state,
    'warning',
    name,
    `1 to ${CUSTOM_REFERENCE_MAX_LENGTH} characters without control characters`,
  );
  return undefined;
}

// Problems with `environment` and `order_reference_v2` are errors: without them the notification
// cannot be acted on. Problems with the other parameters are warnings, and the field is left out.
function readParams(params: URLSearchParams): ParseResult {
  const state: ReadState = { errors: [], warnings: [], service: new Map(), extra: [] };
  params.forEach(collect, state);
  const environment = readRequired(state, PARAMETERS.environment, isEnvironment, '"prod" or "test"');
  const orderReferenceV2 = readRequired(
    state,
    PARAMETERS.orderReferenceV2,
    isOrderReferenceV2,
    '"Order_" followed by 26 letters, digits or "-", ".", "_", "~"',
  );
  const storeCode = readStoreCode(state, PARAMETERS.storeCode, ALIASES.storeCode, true);
  const orderReference = readOrderReference(state, storeCode);
  const customReference = readCustomReference(state);
  const viaStoreCode = readStoreCode(state, PARAMETERS.viaStoreCode, ALIASES.viaStoreCode, false);
  if (state.errors.length > 0 || environment === undefined || orderReferenceV2 === undefined) {
    return { ok: false, errors: state.errors };
  }
  const value: OrderUpdatedNotification = {
    environment,
    orderReferenceV2,
    extra: state.extra,
    ...orderReference,
  };
  if (storeCode !== undefined) value.storeCode = storeCode;
  if (customReference !== undefined) value.customReference = customReference;
  if (viaStoreCode !== undefined) value.viaStoreCode = viaStoreCode;
  return { ok: true, value, warnings: state.warnings };
}
