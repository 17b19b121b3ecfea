import { ALIASES, type Environment, PARAMETERS } from './params.ts';

export interface CallbackUrlParams {
  environment: Environment;
  /** V1-style `<store_code>-<number>`. */
  orderReference: string;
  /** `Order_...`. */
  orderReferenceV2: string;
  storeCode: string;
  customReference?: string | undefined;
  viaStoreCode?: string | undefined;
}

export interface BuildCallbackUrlOptions {
  /** Also send the deprecated aliases, as the service does. Default `true`. */
  aliases?: boolean;
}

/**
 * Builds the URL the service would call for an order, for partners' own tests.
 *
 * The merge rule of the reference: the query of the configured URL is preserved (its pairs keep
 * their original text and order), and on a name collision the service's value wins, so every
 * configured pair of a name the service sends is dropped. The service's parameters follow, each
 * once, with the deprecated aliases filled from their canonical values. Values are not validated,
 * so tests can also build malformed notifications. Throws a `TypeError` if `configuredUrl` is not
 * an absolute URL.
 */
export function buildCallbackUrl(
  configuredUrl: string | URL,
  params: CallbackUrlParams,
  options: BuildCallbackUrlOptions = {},
): string {
  const url = new URL(configuredUrl);
  const aliases = options.aliases ?? true;

  const sent: Array<[string, string]> = [
    [PARAMETERS.environment, params.environment],
    [PARAMETERS.orderReference, params.orderReference],
    [PARAMETERS.orderReferenceV2, params.orderReferenceV2],
    [PARAMETERS.storeCode, params.storeCode],
  ];
  if (params.customReference !== undefined) sent.push([PARAMETERS.customReference, params.customReference]);
  if (params.viaStoreCode !== undefined) sent.push([PARAMETERS.viaStoreCode, params.viaStoreCode]);
  if (aliases) {
    if (params.customReference !== undefined) sent.push([ALIASES.customReference, params.customReference]);
    sent.push([ALIASES.storeCode, params.storeCode]);
    if (params.viaStoreCode !== undefined) sent.push([ALIASES.viaStoreCode, params.viaStoreCode]);
  }
  const names = new Set(sent.map(([name]) => name));

  // Keep the configured pairs byte for byte unless the service overrides their name.
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((pair) => {
      if (pair === '') return false;
      const [[name] = ['']] = new URLSearchParams(pair);
      return !names.has(name);
    });
  const added = new URLSearchParams(sent).toString();
  url.search = [...kept, added].join('&');
  return url.href;
}
