// A TCP proxy in front of redis-server that plays "Redis unreachable" (every connection dropped, new ones
// refused) without losing Redis's data: for the order-claims tests (client, migrate) and the client's fleet bench.
import { createServer, type Server, type Socket, connect as tcp } from 'node:net';

export async function startProxy(port: number) {
  const sockets = new Set<Socket>();
  let open = true;
  const listener: Server = createServer((socket) => {
    if (!open) return socket.destroy();
    const upstream = tcp(port, '127.0.0.1');
    for (const s of [socket, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const address = listener.address();
  return {
    url: `redis://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    /** Redis becomes unreachable: every connection drops and new ones are refused. */
    cut() {
      open = false;
      for (const s of sockets) s.destroy();
    },
    restore() {
      open = true;
    },
    close: () => new Promise<void>((resolve) => listener.close(() => resolve())),
  };
}
