/**
 * A small RFC 9651 (Structured Field Values) serializer for the List members the rate-limit
 * headers use: an Item whose bare item is a String, with Integer parameters.
 * Written from the RFC on purpose, independent of the SDK's parser.
 */
export type BareItem = string | number | boolean;
export interface SfItem {
  value: BareItem;
  params?: ReadonlyArray<readonly [string, BareItem]>;
}

const KEY = /^[a-z*][a-z0-9_\-.*]*$/;

function serializeString(value: string): string {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) throw new TypeError('sf-string must be printable ASCII');
  }
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

function serializeBare(value: BareItem): string {
  if (typeof value === 'boolean') return value ? '?1' : '?0';
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || Math.abs(value) > 999_999_999_999_999) {
      throw new TypeError('sf-integer out of range');
    }
    return String(value);
  }
  return serializeString(value);
}

function serializeParams(params: SfItem['params']): string {
  let out = '';
  for (const [key, value] of params ?? []) {
    if (!KEY.test(key)) throw new TypeError(`invalid sf-key ${key}`);
    out += value === true ? `;${key}` : `;${key}=${serializeBare(value)}`;
  }
  return out;
}

export function serializeList(items: readonly SfItem[]): string {
  return items.map((item) => serializeBare(item.value) + serializeParams(item.params)).join(', ');
}
