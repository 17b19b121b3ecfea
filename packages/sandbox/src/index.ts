export { callbackUrl, type Delivery, type DeliveryAttempt } from './callbacks.ts';
export type { Clock, SandboxClock } from './clock.ts';
export type { OrderChange, RenderOutcome, RenderOutcomeInput } from './context.ts';
export {
  type ClaimDecisionInput,
  ControlError,
  type SandboxControl,
  type ShipOptions,
  type UploadInfo,
} from './control/api.ts';
export type { ActiveFault, FaultKind, FaultSpec, LateCommitAnswer } from './faults.ts';
export {
  DEFAULT_POLICIES,
  type Policies,
  type Policy,
  type PolicyName,
  type RateLimitOption,
} from './ratelimit.ts';
export { renderWeek } from './rendertokens.ts';
export {
  createSandbox,
  DEFAULT_SEED,
  DEFAULT_START_TIME,
  type Sandbox,
  type SandboxKeys,
  type SandboxOptions,
  type SandboxSeed,
} from './sandbox.ts';
export type { OrganizationSeed } from './seed.ts';
