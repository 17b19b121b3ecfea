// Where errors point for an explanation. One constant to change when the documentation moves.

/** The published documentation site (the single page built from `docs/`): `docUrl`s are links into it. */
export const DOCS_URL = 'https://partner-print.github.io/sdk/';

/**
 * The section of the error reference (docs/guides/errors.md) for an error's `name`: the docs site routes a
 * guide's `## Heading` as `#/guide-<file>/<heading slug>`, and a class name's slug is the name in lower case.
 * No table: the section lists the class's codes and links on to the guide sections that explain them.
 */
export const docUrlOf = (name: string): string => `${DOCS_URL}#/guide-errors/${name.toLowerCase()}`;
