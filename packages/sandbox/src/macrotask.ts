/**
 * A promise that settles in a later macrotask, after every microtask queued before it (and those they queue)
 * has run. A MessageChannel message costs microseconds where setTimeout(0) is clamped to a millisecond or more,
 * so a virtual clock that yields before each timer stays fast; setTimeout is the fallback where a runtime has
 * no MessageChannel. An open port keeps some runtimes alive (Deno, even without a listener), so the channel is
 * closed as soon as no yield is pending and opened again for the next one: an idle clock keeps no process alive.
 */
let channel: MessageChannel | undefined;
const waiting: Array<() => void> = [];

function closeIfIdle(): void {
  if (waiting.length > 0 || !channel) return;
  channel.port1.close();
  channel = undefined;
}

function deliver(): void {
  waiting.shift()?.();
  // After the woken code's first reaction: a loop that yields again at once keeps the same channel.
  if (waiting.length === 0) queueMicrotask(closeIfIdle);
}

export function nextMacrotask(): Promise<void> {
  return new Promise<void>((resolve) => {
    if (typeof MessageChannel !== 'function') {
      setTimeout(resolve, 0);
      return;
    }
    if (!channel) {
      channel = new MessageChannel();
      channel.port1.onmessage = deliver;
    }
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });
}
