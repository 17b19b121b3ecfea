// The shared check (../../shared/web-api.ts, copied here by run.ts) under moduleResolution bundler.
export * from './web-api.js';
