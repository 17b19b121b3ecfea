/**
 * A promise that settles in a later macrotask, after every microtask queued before it (and those they queue)
 * has run. A MessageChannel message costs microseconds where setTimeout(0) is clamped to a millisecond or more,
 * so a virtual clock that yields before each timer stays fast; setTimeout is the fallback where a runtime has
 * no MessageChannel. The port listens only while a yield is pending: an idle clock keeps no process alive.
 */
let channel: MessageChannel | undefined;
const waiting: Array<() => void> = [];

function deliver(): void {
  const next = waiting.shift();
  if (waiting.length === 0 && channel) channel.port1.onmessage = null;
  next?.();
}

export function nextMacrotask(): Promise<void> {
  return new Promise<void>((resolve) => {
    if (typeof MessageChannel !== 'function') {
      setTimeout(resolve, 0);
      return;
    }
    channel ??= new MessageChannel();
    waiting.push(resolve);
    if (!channel.port1.onmessage) channel.port1.onmessage = deliver;
    channel.port2.postMessage(null);
  });
}
