// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
const sceneReference = process.env.SCENE_REFERENCE as `Scene_${string}`;
// #endregion

const { scene } = await client.get('/scenes/{sceneReference}', {
  params: { path: { sceneReference } },
});
console.log(scene.name, scene.allowsProductPerspectives, scene.compatibleProductgroups, scene.perspectives);
