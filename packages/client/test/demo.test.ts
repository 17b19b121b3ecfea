import { describe, expect, it } from 'vitest';
import { runDemo } from '../../../docs/examples/demo.ts';

describe('pnpm demo', () => {
  it('runs the whole walkthrough against the in-process sandbox', { timeout: 60_000 }, async () => {
    const lines: string[] = [];
    const ctx = await runDemo({ log: (line) => lines.push(line) });
    const text = lines.join('\n');
    expect(ctx.state).toMatchObject({
      image: expect.stringMatching(/^Image_/),
      dropshipOrder: expect.stringMatching(/^Order_/),
      combinedOrder: expect.stringMatching(/^Order_/),
      dropshipShipment: expect.stringMatching(/^Shipment_/),
      decidedClaim: expect.stringMatching(/^Claim_/),
      retractedClaim: expect.stringMatching(/^Claim_/),
    });
    expect(text).toContain('same reference');
    expect(text).toContain('ValidationError missing_image_reference');
    expect(text).toContain(`demo-1001 → ${ctx.state.dropshipOrder}`);
    expect(text).toContain('evidence_required');
    expect(text).toContain('status after: resolved');
    expect(text).toContain(`${ctx.state.retractedClaim}: retracted`);
    expect(text).toContain('AmbiguousOutcomeError');
    expect(text).toMatch(/\d+ orders in \d+ requests/);
    expect(text).not.toContain(ctx.sandbox.keys.primary);
    // demo-1003 went through a dropped connection and exists exactly once (other steps may add orders)
    const orders = (await ctx.client.collect('/orders')) as Array<{ customIdentifier?: string | null }>;
    const ids = orders.map((o) => o.customIdentifier).filter(Boolean);
    expect(ids.filter((id) => id === 'demo-1003')).toHaveLength(1);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('README examples', () => {
  it('docs/examples/client-quickstart.ts runs against the sandbox', async () => {
    const { quickstart } = await import('../../../docs/examples/client-quickstart.ts');
    const lines: string[] = [];
    await quickstart((line) => lines.push(line));
    expect(lines.join('\n')).toMatch(
      /created Order_[\s\S]*refused: missing_image_reference \(422\) in createOrder/,
    );
  });
});
