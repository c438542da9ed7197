// Forwards every request to the gateway with the API key added (the conformance suite sends no
// credentials); method, path, headers (Host and Origin unchanged) and both bodies stream through.
import http from 'node:http';

const [listenPort, target, key] = [Number(process.argv[2]), new URL(process.argv[3]), process.argv[4]];
http
  .createServer((req, res) => {
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${key}` },
        // A fresh connection per request: a kept-alive one the gateway has just closed would fail
        // the next request with "other side closed", which is this proxy's flake, not the gateway's.
        agent: false,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  })
  .listen(listenPort, '127.0.0.1');
