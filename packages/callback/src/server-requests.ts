// Requests the Node adapter made from an incoming HTTP request: the handler's span for one of them is the
// SERVER span, unless an HTTP server instrumentation already made one. Shared by the two entries, so that
// the Node adapter needs no OpenTelemetry import of its own.
export const serverRequests: WeakSet<Request> = new WeakSet<Request>();
