// js-yaml ships no types and only `load` is used here; a local declaration avoids another dependency.
declare module 'js-yaml' {
  export function load(text: string): unknown;
}
