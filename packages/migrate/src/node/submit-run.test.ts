import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { timeWithoutStalls } from '../../../../test-utils/stall.ts';
import { tempDir } from '../../test/helpers.ts';
import type { JsonLine } from './files.ts';
import { openBufferedWriter } from './io.ts';
import type { LineResult } from './submit-line.ts';
import { type LineRun, runLines } from './submit-run.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const silent = { write: () => true };

async function lineRun(lines: number, processLine: LineRun['processLine'], signal?: AbortSignal) {
  const dir = tempDir();
  const file = join(dir, 'orders.jsonl');
  const pad = 'x'.repeat(2_000);
  writeFileSync(file, Array.from({ length: lines }, (_, i) => `{"n":${i + 1},"pad":"${pad}"}\n`).join(''));
  const out = await openBufferedWriter(join(dir, 'out.jsonl'), 'w');
  const report = await openBufferedWriter(join(dir, 'report.jsonl'), 'w');
  const run: LineRun = {
    file,
    io: { stdout: silent, stderr: silent, env: {}, ...(signal ? { signal } : {}) },
    out,
    report,
    state: undefined,
    reportPath: join(dir, 'report.jsonl'),
    concurrency: 4,
    processLine,
    stopLines: new AbortController(),
    keyRefused: () => false,
  };
  return { run, close: () => Promise.all([out.close(), report.close()]) };
}

const converted = (l: JsonLine): LineResult => ({
  line: l.line,
  status: 'converted',
  done: true,
  errors: [],
  report: [],
});

describe('runLines', () => {
  it('lets go of each line once it is written (memory stays flat however long the file)', async () => {
    const seen: Array<WeakRef<JsonLine>> = [];
    let collected: number | undefined;
    const { run, close } = await lineRun(400, async (l) => {
      seen.push(new WeakRef(l));
      if (l.line === 300) {
        await new Promise((resolve) => setImmediate(resolve));
        gc();
        collected = seen.slice(0, 200).filter((ref) => ref.deref() === undefined).length;
      }
      return converted(l);
    });
    const result = await runLines(run);
    await close();
    expect(result.counts).toEqual({ converted: 400 });
    // Lines 1–200 were written long before line 300: nothing may still hold them.
    expect(collected).toBe(200);
  });

  it('after Ctrl-C and the grace period, a line that does not answer is recorded as not done', async () => {
    const controller = new AbortController();
    const { run, close } = await lineRun(
      8,
      (l) => {
        if (l.line < 3) return Promise.resolve(converted(l));
        if (l.line === 3) setTimeout(() => controller.abort(), 0);
        return new Promise<LineResult>(() => {}); // never answers
      },
      controller.signal,
    );
    // Without the process's stalls (test-utils/stall.ts): the grace period (1.5 s) and the answer window
    // (0.2 s) count, a machine that does not run the process for a second does not.
    const { result, ms } = await timeWithoutStalls(async () => {
      const counted = await runLines(run);
      await close();
      return counted;
    });
    expect(ms).toBeLessThan(2_500);
    expect(result.counts.converted).toBe(2);
    expect(result.counts['not-done']).toBeGreaterThan(0);
  });
});

describe('runLines, a line given up after Ctrl-C', () => {
  it('whose POST may have been sent is recorded as unsettled, so that the rerun settles before posting it again', async () => {
    const controller = new AbortController();
    const { run, close } = await lineRun(
      5,
      (l, posting) => {
        if (l.line < 3) return Promise.resolve(converted(l));
        if (l.line === 3) {
          posting?.('WEB-3'); // its POST is on its way, and its answer does not come back in time
          setTimeout(() => controller.abort(), 0);
        }
        return new Promise<LineResult>(() => {}); // never answers (a POST held by a starved or slow process)
      },
      controller.signal,
    );
    const state = {
      ...{ version: 1 as const, command: 'orders' as const, input: run.file, inputSize: 0, inputMtimeMs: 0 },
      ...{ line: 0, outputBytes: 0, reportBytes: 0, counts: {}, unsettled: [] as string[], done: false },
    };
    run.state = state;
    const result = await runLines(run);
    await close();
    expect(result.counts['not-done']).toBe(3);
    // Only the line that was posting: lines 4 and 5 never reached their POST.
    expect(state.unsettled).toEqual(['WEB-3']);
  });
});
