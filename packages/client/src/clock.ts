// The one Clock of the SDK lives in @partner-print/openapi/wire; this module only re-exports it for the
// modules that import it from here.
export { type Clock, systemClock } from '@partner-print/openapi/wire';
