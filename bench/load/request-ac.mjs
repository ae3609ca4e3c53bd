// autocannon driver for the project's own phases (GraphQL, conditional) when wrk is absent: prints the
// same "WRK_JSON {...}" line as the reference's load/ac.mjs.
//   node request-ac.mjs <url> <connections> <seconds>
// Environment: BK_TOKEN, BK_METHOD (GET), BK_BODY (a JSON body, sent as application/json),
//   BK_HEADERS (JSON object of more headers), BK_EXPECT_STATUS (e.g. 304: any other status is an error;
//   without it, as ac.mjs, every status but 2xx is).
import autocannon from 'autocannon';

const [url, conns, secs] = process.argv.slice(2);
const body = process.env.BK_BODY;
const r = await autocannon({
  url,
  connections: Number(conns),
  duration: Number(secs),
  timeout: 10,
  method: process.env.BK_METHOD || 'GET',
  headers: {
    authorization: `Bearer ${process.env.BK_TOKEN || ''}`,
    accept: 'application/json',
    ...(body ? { 'content-type': 'application/json' } : {}),
    ...JSON.parse(process.env.BK_HEADERS || '{}'),
  },
  ...(body ? { body } : {}),
});
const expected = process.env.BK_EXPECT_STATUS;
const answered = r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'];
// autocannon counts statuses by class only; a 304 phase expects 3xx (its check makes sure they are 304).
const statusErrors = expected ? answered - r[`${expected[0]}xx`] : r.non2xx;
const us = (ms) => Math.round(ms * 1000);
console.log(
  `WRK_JSON ${JSON.stringify({
    requests: r.requests.total,
    duration_us: Math.round(r.duration * 1e6),
    bytes: r.throughput.total,
    err_connect: 0,
    err_read: r.errors - r.timeouts,
    err_write: 0,
    err_status: statusErrors,
    err_timeout: r.timeouts,
    p50_us: us(r.latency.p50),
    p90_us: us(r.latency.p90),
    p99_us: us(r.latency.p99),
    max_us: us(r.latency.max),
    mean_us: us(r.latency.average),
  })}`,
);
