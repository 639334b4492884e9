/** A plain aedes broker on an ephemeral loopback port, for the bench helpers that stand in for a daemon. */
import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';

export interface LoopbackBroker {
  broker: Aedes;
  server: Server;
  port: number;
  /** Stops listening, then closes the broker. */
  close: () => Promise<void>;
}

export async function listenLoopbackBroker(): Promise<LoopbackBroker> {
  const broker = await Aedes.createBroker();
  const server = createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const close = async (): Promise<void> => {
    server.close();
    await new Promise<void>((resolve) => broker.close(() => resolve()));
  };
  return { broker, server, port, close };
}
