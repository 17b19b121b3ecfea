// The ./telemetry entry exports what the README's "OpenTelemetry" section documents, no more.
import { describe, expect, it } from 'vitest';
import * as entry from '../src/otel.ts';

describe('@partner-print/client/telemetry', () => {
  it('exports the scope the other packages draw their tracer and meter from', () => {
    expect(Object.entries(entry).map(([name, value]) => `${name}: ${typeof value}`)).toEqual([
      'telemetryOf: function',
      'endSpan: function',
      'telemetryScope: function',
    ]);
  });
});
