// An HTTP proxy on port 0 that forwards every request to a target server and remembers what arrived:
// method, path and headers. Tests put it between the bot and the emulator to see headers the emulator's
// own request log does not keep (X-Request-Id).
import { createServer, request as forward, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

export interface RecordingProxy {
  url: string;
  /** Every request forwarded so far, oldest first. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startRecordingProxy(targetUrl: string): Promise<RecordingProxy> {
  const target = new URL(targetUrl);
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    requests.push({ method: incoming.method ?? 'GET', path: incoming.url ?? '/', headers: incoming.headers });
    const upstream = forward(
      {
        hostname: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: target.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname === '/' ? '' : target.pathname}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
