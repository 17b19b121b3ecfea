import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { TracerProvider } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { telemetryScope } from './option.ts';
import { stackTelemetry } from './stack.ts';
import type { CallTelemetry } from './types.ts';

describe('stackTelemetry', () => {
  it('keeps no request alive from the call it found it by (a WeakMap value a young collection keeps whole)', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const scope = telemetryScope({ tracerProvider: new TracerProvider() }, 'test');
    if (!scope) throw new Error('no scope');
    const telemetry = stackTelemetry({
      scope,
      secret: 'sk_test_1',
      templateOf: () => '/orders/{orderReference}',
    });
    const send = telemetry.transport(() => Promise.resolve(new Response('ok')));
    let call: CallTelemetry | undefined;
    let sent!: WeakRef<Request>;
    await (async () => {
      const request = new Request('http://127.0.0.1/orders/1');
      sent = new WeakRef(request);
      call = telemetry.call(request, () => ({ operation: 'getOrder', method: 'GET', path: '/orders/1' }));
      // A request without a body: its attempt sends it as it is (the attempt's Request is the call's).
      call?.attempt(request);
      const response = await call?.end(send(request), false);
      expect(await response?.text()).toBe('ok');
    })();
    expect(call).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 0)); // a WeakRef's target is kept until the job ends
    // `call` held, as a young collection holds the value of a WeakMap entry whose key is young (its entry
    // goes only once its key is found dead, which a value holding that key prevents until a full GC).
    gc();
    expect(sent.deref()).toBeUndefined();
  });
});
