import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { SMTPConnection, type SMTPConnectionOptions } from 'smtp-server/lib/smtp-connection.js';

/**
 * smtp-server's SMTPServer with one difference: it greets a client as soon as it connects, where the library waits a
 * fixed 100 ms first to catch spammers that talk before the greeting ("early talkers"), a delay it has no option for
 * (smtp-server 3.21). The relay test opens about 600 connections (200 receipts, 30% of commands refused), 4 at a
 * time: 15 s of that test were this wait (issue #19, decision 0066). An early talker is still refused: the connection
 * reads no command before its greeting is sent.
 * NOTE: built on two internals of the pinned version, which a new version may change (the test server then fails to
 * greet, and every mail test with it): `connect(socket, options)` of SMTPServer, which it overrides with the
 * library's own body, and `_setListeners(ready)` of SMTPConnection, which `init` calls before its delay.
 */
export class SMTPServerWithoutGreetingDelay extends SMTPServer {
  /** Called by smtp-server for each accepted socket: the library's body, with a connection that greets at once. */
  override connect(socket: Socket, socketOptions: SMTPConnectionOptions): void {
    const server = this as unknown as { _onError(error: Error): void; _onClientConnect(data: unknown): void };
    const connection = new PromptSMTPConnection(this as never, socket, socketOptions);
    this.connections.add(connection);
    connection.on('error', (error: Error) => server._onError(error));
    connection.on('connect', (data: unknown) => server._onClientConnect(data));
    connection.init();
  }
}

/** smtp-server's connection whose `init` readies the session at once instead of after 100 ms. */
class PromptSMTPConnection extends SMTPConnection {
  override init(): void {
    const connection = this as unknown as { _setListeners(ready: () => void): void };
    connection._setListeners(() => this.connectionReady());
  }
}

/**
 * Starts `server` on a free port of 127.0.0.1 and resolves with the port (rejects when it cannot listen). Once it
 * listens, its later errors are ignored: a client's connection reset (a server process killed mid-session) is reported
 * as an 'error' of the server; it is no fault of the server's, and unheard it would end the process.
 */
export async function listenOnFreePort(server: SMTPServer): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      server.on('error', () => undefined);
      resolve();
    });
  });
  return (server.server.address() as AddressInfo).port;
}
