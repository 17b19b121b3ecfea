/**
 * Refuses an options object holding a key that `names` does not (a typo) with `new error(message)`, the
 * message prefixed by `what`. A misspelt option used to be ignored (`timeoutms` kept the default,
 * `secretParameters` left a token unredacted); only the name is shown, never the value, which may be a secret
 * put in the wrong place. Each package passes its own error class.
 */
export function refuseUnknownOptions(
  options: object,
  names: readonly string[],
  error: new (message: string) => Error,
  what = '',
): void {
  for (const key in options)
    if (!names.includes(key))
      throw new error(`${what}unknown option ${JSON.stringify(key)}; options are ${names.join(', ')}`);
}
