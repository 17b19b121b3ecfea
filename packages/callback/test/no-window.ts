import { createOrderUpdatedHandler, type OrderUpdatedHandlerOptions } from '../src/handler.ts';

/**
 * The handler without a coalescing window, for the tests about rounds themselves (the default window is
 * tested on its own).
 */
export function handlerWithoutWindow<TOrder>(options: OrderUpdatedHandlerOptions<TOrder>) {
  return createOrderUpdatedHandler<TOrder>({ windowMs: 0, ...options });
}
