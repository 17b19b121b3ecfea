import { encode } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { json } from './contract.ts';
import { DAY, GIF_BYTES, jpegBytes, pngBytes, SECOND, setup } from './fixtures.ts';

type Err = { code: string };

describe('POST /images and /evidence', () => {
  it('accepts PNG and JPEG, recognised by content, and reads their dimensions', async () => {
    const { a, sandbox } = setup();
    const png = await json<{ image: { reference: string } }>(await a.upload('/images', pngBytes(1, 12, 8)));
    expect(png.image.reference).toMatch(/^Image_[0-9A-Za-z]{26}$/);
    expect(sandbox.control.upload(png.image.reference)).toMatchObject({
      format: 'png',
      width: 12,
      height: 8,
      downsized: false,
    });
    const jpeg = await json<{ evidence: { reference: string } }>(
      await a.upload('/evidence', jpegBytes(640, 480)),
    );
    expect(jpeg.evidence.reference).toMatch(/^Evidence_[0-9A-Za-z]{26}$/);
    expect(sandbox.control.upload(jpeg.evidence.reference)).toMatchObject({
      kind: 'evidence',
      format: 'jpeg',
      width: 640,
      height: 480,
    });
  });

  it('refuses anything but JPEG and PNG with 415 unsupported_image_format', async () => {
    const { a } = setup();
    for (const path of ['/images', '/evidence'] as const) {
      const res = await a.upload(path, GIF_BYTES);
      expect(res.status).toBe(415);
      expect((await json<Err>(res)).code).toBe('unsupported_image_format');
    }
    const text = await a.upload('/images', new TextEncoder().encode('hello, not an image'));
    expect((await json<Err>(text)).code).toBe('unsupported_image_format');
  });

  it('refuses a body that only starts like a PNG (422 invalid_image)', async () => {
    const { a } = setup();
    const res = await a.upload('/images', pngBytes(1).slice(0, 12));
    expect(res.status).toBe(422);
    expect((await json<Err>(res)).code).toBe('invalid_image');
  });

  it('refuses an empty body (400 empty_body) and another content type (415 unsupported_content_type)', async () => {
    const { a } = setup();
    const empty = await a.upload('/images', new Uint8Array());
    expect(empty.status).toBe(400);
    expect((await json<Err>(empty)).code).toBe('empty_body');
    const typed = await a.raw('/images', {
      method: 'POST',
      headers: { 'Content-Type': 'image/png' },
      body: pngBytes(1) as Uint8Array<ArrayBuffer>,
    });
    expect(typed.status).toBe(415);
    expect((await json<Err>(typed)).code).toBe('unsupported_content_type');
  });

  it('gives the same bytes the same reference within an organization, and a different one elsewhere', async () => {
    const { a, b } = setup();
    const bytes = pngBytes(7);
    const first = await json<{ image: { reference: string } }>(await a.upload('/images', bytes));
    const again = await json<{ image: { reference: string } }>(await a.upload('/images', bytes, 'secondary'));
    const other = await json<{ image: { reference: string } }>(await b.upload('/images', bytes));
    const different = await json<{ image: { reference: string } }>(await a.upload('/images', pngBytes(8)));
    expect(again.image.reference).toBe(first.image.reference);
    expect(other.image.reference).not.toBe(first.image.reference);
    expect(different.image.reference).not.toBe(first.image.reference);
  });

  it('records images over 7000x7000 as downsized', async () => {
    const { a, sandbox } = setup();
    const wide = encode({ width: 7001, height: 2, data: new Uint8Array(7001 * 2), channels: 1, depth: 8 });
    const res = await json<{ image: { reference: string } }>(await a.upload('/images', wide));
    expect(sandbox.control.upload(res.image.reference)).toMatchObject({
      downsized: true,
      originalWidth: 7001,
      width: 7000,
      height: 2,
    });
    const edge = encode({ width: 7000, height: 1, data: new Uint8Array(7000), channels: 1, depth: 8 });
    const ok = await json<{ image: { reference: string } }>(await a.upload('/images', edge));
    expect(sandbox.control.upload(ok.image.reference).downsized).toBe(false);
  });

  it('deletes unused evidence after 1 day', async () => {
    const { a, sandbox, shipped } = setup();
    const { shipmentReference } = await shipped();
    await sandbox.control.advance(3 * DAY);
    const bytes = pngBytes(42);
    const kept = (await json<{ evidence: { reference: string } }>(await a.upload('/evidence', bytes)))
      .evidence.reference;
    const lost = (await json<{ evidence: { reference: string } }>(await a.upload('/evidence', pngBytes(43))))
      .evidence.reference;
    await sandbox.control.advance(DAY - SECOND);
    const ok = await a.post('/claim-package-missing', {
      claim: { shipmentReference, evidenceReferences: [kept] },
    });
    expect(ok.status).toBe(200);
    await sandbox.control.advance(2 * SECOND);
    const { orderReference: o2, shipmentReference: s2 } = await shipped();
    void o2;
    await sandbox.control.advance(3 * DAY);
    const res = await a.post('/claim-package-missing', {
      claim: { shipmentReference: s2, evidenceReferences: [lost] },
    });
    expect(res.status).toBe(422);
    expect((await json<Err>(res)).code).toBe('unknown_evidence');
    // Evidence attached to a claim is kept; re-uploading deleted bytes gives a fresh reference.
    expect(sandbox.control.upload(kept).claimReference).toMatch(/^Claim_/);
    const again = (await json<{ evidence: { reference: string } }>(await a.upload('/evidence', pngBytes(43))))
      .evidence.reference;
    expect(again).not.toBe(lost);
  });

  it('stops serving the file of unused evidence once it is deleted after 1 day', async () => {
    const { a, sandbox } = setup();
    const ref = (await json<{ evidence: { reference: string } }>(await a.upload('/evidence', pngBytes(44))))
      .evidence.reference;
    const file = () => sandbox.fetch(`http://sandbox.localhost/files/evidence/${ref}.png`);
    await sandbox.control.advance(DAY);
    expect((await file()).status).toBe(200);
    await sandbox.control.advance(SECOND);
    expect((await file()).status).toBe(404);
  });
});
