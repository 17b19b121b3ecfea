// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
const productgroupReference = process.env.PRODUCTGROUP_REFERENCE as `Productgroup_${string}`;
// #endregion

const { scenes } = await client.get('/scenes', { params: { query: { productgroupReference } } });
for (const scene of scenes) console.log(scene.reference, scene.name);
