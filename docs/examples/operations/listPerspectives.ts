// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
const sceneReference = process.env.SCENE_REFERENCE as `Scene_${string}`;
// #endregion

const { perspectives } = await client.get('/perspectives', { params: { query: { sceneReference } } });
for (const p of perspectives) {
  console.log(p.reference, p.name, `${p.output.widthPx}x${p.output.heightPx}`, p.output.format);
}
