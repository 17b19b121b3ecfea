import { createReadStream } from 'node:fs';
import cliProgress from 'cli-progress';
import type { OutStream } from './io.ts';

/** Counts lines by scanning for newlines (streamed; used only to size the progress bar). */
export async function countLines(path: string): Promise<number> {
  let n = 0;
  let last = 10;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) n++;
    last = chunk[chunk.length - 1] ?? 10;
  }
  return last === 10 ? n : n + 1;
}

/** A progress bar on stderr (only when it is a terminal). */
export function createProgress(stream: OutStream, total: number, start: number) {
  const bar = new cliProgress.SingleBar(
    {
      stream: stream as NodeJS.WritableStream,
      format: ' {bar} {percentage}% | {value}/{total} lines | {eta_formatted} left',
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 200,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(Math.max(total, start), start);
  return {
    update: (line: number): void => bar.update(line),
    stop: (): void => bar.stop(),
  };
}
