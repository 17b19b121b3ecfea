// Module hooks for the validating-proxy run: `@partner-print/sandbox` resolves to sandbox-module.ts, which
// wraps createSandbox. Everything else resolves as usual (tsx handles TypeScript).
const STAND_IN = new URL('./sandbox-module.ts', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === '@partner-print/sandbox' && context.parentURL !== STAND_IN) {
    return nextResolve(STAND_IN, context);
  }
  return nextResolve(specifier, context);
}
