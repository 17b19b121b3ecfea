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
function hasUnsafeText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0xfffd) return true;
  }
  return false;
}

/**
 * Reads and validates the query of a legacy order-updated callback.
 *
 * Accepts an absolute URL string, a `/path?query` or `?query` string, a `URL`, a `URLSearchParams`
 * or a `Request` (only its URL is read). Never throws: anything unusable comes back as
 * `{ ok: false, errors }`.
 */
export function parseOrderUpdatedCallback(input: unknown): ParseResult {
  try {
    const params = toSearchParams(input);
    if ('errors' in params) return { ok: false, errors: params.errors };
    return readParams(params.params);
  } catch {
    // Exotic inputs (throwing getters, proxies) must still not escape as exceptions.
    return fail({ code: 'invalid_input', message: 'The input could not be read as a callback URL.' });
  }
}

function fail(...errors: CallbackError[]): { ok: false; errors: CallbackError[] } {
  return { ok: false, errors };
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
  if (input instanceof URLSearchParams) {
    let length = 0;
    for (const [name, value] of input) {
      length += name.length + value.length + 2;
      if (length > MAX_INPUT_LENGTH) return { errors: [tooLong] };
    }
    return { params: input };
  }
  if (input instanceof URL) return fromString(input.href);
  if (typeof Request !== 'undefined' && input instanceof Request) return fromString(input.url);
  // A Request of another realm or fetch implementation (undici copies, framework polyfills).
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

function readParams(params: URLSearchParams): ParseResult {
  const state: ReadState = { errors: [], warnings: [], service: new Map(), extra: [] };
  const { errors, service, extra } = state;
  params.forEach(collect, state);
  const nameOf = (canonical: string, alias: string) => (service.has(canonical) ? canonical : alias);

  // environment: needed (a notification for the other environment is refused).
  const environmentRaw = single(state, PARAMETERS.environment, 'error');
  let environment: Environment | undefined;
  if (environmentRaw === undefined) {
    if (!service.has(PARAMETERS.environment)) missing(state, 'error', PARAMETERS.environment);
  } else if ((ENVIRONMENTS as readonly string[]).includes(environmentRaw)) {
    environment = environmentRaw as Environment;
  } else {
    invalid(state, 'error', PARAMETERS.environment, '"prod" or "test"');
  }

  // order_reference_v2: needed (the order is fetched with it).
  const v2Raw = single(state, PARAMETERS.orderReferenceV2, 'error');
  let orderReferenceV2: OrderReferenceV2 | undefined;
  if (v2Raw === undefined) {
    if (!service.has(PARAMETERS.orderReferenceV2)) missing(state, 'error', PARAMETERS.orderReferenceV2);
  } else if (ORDER_REFERENCE_V2_PATTERN.test(v2Raw)) {
    orderReferenceV2 = v2Raw as OrderReferenceV2;
  } else {
    invalid(
      state,
      'error',
      PARAMETERS.orderReferenceV2,
      '"Order_" followed by 26 letters, digits or "-", ".", "_", "~"',
    );
  }

  // store_code (alias partner_code)
  const storeCodeRaw = withAlias(state, PARAMETERS.storeCode, ALIASES.storeCode);
  let storeCode: string | undefined;
  if (storeCodeRaw === undefined) {
    if (!service.has(PARAMETERS.storeCode) && !service.has(ALIASES.storeCode))
      missing(state, 'warning', PARAMETERS.storeCode);
  } else if (STORE_CODE_PATTERN.test(storeCodeRaw)) {
    storeCode = storeCodeRaw;
  } else {
    invalid(state, 'warning', nameOf(PARAMETERS.storeCode, ALIASES.storeCode), STORE_CODE_SHAPE);
  }

  // order_reference: <store_code>-<number>, split on the last "-" since store codes may hold "-".
  const orderReferenceRaw = single(state, PARAMETERS.orderReference, 'warning');
  let orderReference: string | undefined;
  let orderReferenceParts: { storeCode: string; number: string } | undefined;
  if (orderReferenceRaw === undefined) {
    if (!service.has(PARAMETERS.orderReference)) missing(state, 'warning', PARAMETERS.orderReference);
  } else {
    const dash = orderReferenceRaw.lastIndexOf('-');
    const code = orderReferenceRaw.slice(0, Math.max(dash, 0));
    const number = orderReferenceRaw.slice(dash + 1);
    if (!(dash > 0 && STORE_CODE_PATTERN.test(code) && ORDER_NUMBER_PATTERN.test(number))) {
      invalid(
        state,
        'warning',
        PARAMETERS.orderReference,
        '"<store_code>-<number>" with a valid store code and 1 to 20 digits',
      );
    } else if (storeCode !== undefined && code !== storeCode) {
      state.warnings.push({
        code: 'store_code_mismatch',
        parameter: PARAMETERS.orderReference,
        message: `The store code in "${PARAMETERS.orderReference}" differs from "${PARAMETERS.storeCode}". It is left out.`,
      });
    } else {
      orderReference = orderReferenceRaw;
      orderReferenceParts = { storeCode: code, number };
    }
  }

  // custom_reference (alias partner_reference)
  const customRaw = withAlias(state, PARAMETERS.customReference, ALIASES.customReference);
  let customReference: string | undefined;
  if (customRaw !== undefined) {
    if (
      customRaw.length === 0 ||
      customRaw.length > CUSTOM_REFERENCE_MAX_LENGTH ||
      hasUnsafeText(customRaw)
    ) {
      invalid(
        state,
        'warning',
        nameOf(PARAMETERS.customReference, ALIASES.customReference),
        `1 to ${CUSTOM_REFERENCE_MAX_LENGTH} characters without control characters`,
      );
    } else {
      customReference = customRaw;
    }
  }

  // via_store_code (alias via_partner_code)
  const viaRaw = withAlias(state, PARAMETERS.viaStoreCode, ALIASES.viaStoreCode);
  let viaStoreCode: string | undefined;
  if (viaRaw !== undefined) {
    if (STORE_CODE_PATTERN.test(viaRaw)) viaStoreCode = viaRaw;
    else invalid(state, 'warning', nameOf(PARAMETERS.viaStoreCode, ALIASES.viaStoreCode), STORE_CODE_SHAPE);
  }

  if (errors.length > 0 || environment === undefined || orderReferenceV2 === undefined) {
    return fail(...errors);
  }
  const value: OrderUpdatedNotification = { environment, orderReferenceV2, extra };
  if (orderReference !== undefined) value.orderReference = orderReference;
  if (orderReferenceParts !== undefined) value.orderReferenceParts = orderReferenceParts;
  if (storeCode !== undefined) value.storeCode = storeCode;
  if (customReference !== undefined) value.customReference = customReference;
  if (viaStoreCode !== undefined) value.viaStoreCode = viaStoreCode;
  return { ok: true, value, warnings: state.warnings };
}
