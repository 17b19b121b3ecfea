import type { OrderUpdatedNotification } from './types.ts';

export const REDACTED = '[redacted]';

/**
 * The notification with the values of the partner's secret query parameters (`secretParams`)
 * replaced, so a callback token never reaches a hook, a queue or a log. The same object when there
 * is nothing to redact.
 */
export function redactNotification(
  notification: OrderUpdatedNotification,
  secretParams: ReadonlySet<string>,
): OrderUpdatedNotification {
  if (secretParams.size === 0 || !notification.extra.some(([name]) => secretParams.has(name))) {
    return notification;
  }
  return {
    ...notification,
    extra: notification.extra.map(([name, value]) => [name, secretParams.has(name) ? REDACTED : value]),
  };
}
