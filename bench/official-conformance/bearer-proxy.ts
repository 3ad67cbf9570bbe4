/**
 * The way the official conformance suite reaches `costlab serve --http`
 * (ADR 0052): the suite takes a bare URL and sends no headers, costlab
 * refuses any request without its bearer token (SPEC §2). This proxy listens
 * on loopback only, adds `Authorization: Bearer <token>` to each request and
 * forwards it, streaming both bodies, so costlab's server runs unchanged with
 * its token rule. A request's Host is forwarded as sent unless it names the
 * proxy itself: a foreign Host (the suite's DNS-rebinding scenario) reaches
 * costlab as foreign, and is judged there.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BearerProxy {
  readonly url: string;
  close(): Promise<void>;
}

const LOOPBACK = '127.0.0.1';

export async function startBearerProxy(upstream: string, token: string): Promise<BearerProxy> {
  const target = new URL(upstream);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname))
    throw new Error(`the bearer proxy forwards to loopback only, not ${target.hostname}`);
  let own = '';
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    if (headers.host === own) headers.host = target.host;
    const forwarded = http.request(
      { host: target.hostname.replace(/^\[|\]$/g, ''), port: target.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('costlab bearer proxy: the server did not answer');
    });
    res.on('close', () => forwarded.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  own = `${LOOPBACK}:${(server.address() as AddressInfo).port}`;
  return {
    url: `http://${own}${target.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
