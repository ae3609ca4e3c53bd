// autocannon driver for the GraphQL twin of the list (when wrk is absent): POSTs BK_BODY with BK_TOKEN
// and prints the same "WRK_JSON {...}" line as the reference's load/ac.mjs.
//   node graphql-ac.mjs <url> <connections> <seconds>
import autocannon from 'autocannon';

const [url, conns, secs] = process.argv.slice(2);
const r = await autocannon({
  url,
  connections: Number(conns),
  duration: Number(secs),
  timeout: 10,
  method: 'POST',
  headers: {
    authorization: `Bearer ${process.env.BK_TOKEN || ''}`,
    accept: 'application/json',
    'content-type': 'application/json',
  },
  body: process.env.BK_BODY || '{}',
});
const us = (ms) => Math.round(ms * 1000);
console.log(
  `WRK_JSON ${JSON.stringify({
    requests: r.requests.total,
    duration_us: Math.round(r.duration * 1e6),
    bytes: r.throughput.total,
    err_connect: 0,
    err_read: r.errors - r.timeouts,
    err_write: 0,
    err_status: r.non2xx,
    err_timeout: r.timeouts,
    p50_us: us(r.latency.p50),
    p90_us: us(r.latency.p90),
    p99_us: us(r.latency.p99),
    max_us: us(r.latency.max),
    mean_us: us(r.latency.average),
  })}`,
);
