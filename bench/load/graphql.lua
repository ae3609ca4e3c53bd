-- wrk script for the GraphQL twin of the list: POSTs one operation (BK_BODY, JSON) with BK_TOKEN.
-- Prints the same WRK_JSON line as the reference's bk.lua. A GraphQL error comes with status 200,
-- so bench/run.ts checks the response before and after the phase.
wrk.method = "POST"
wrk.body = os.getenv("BK_BODY") or "{}"
wrk.headers["Authorization"] = "Bearer " .. (os.getenv("BK_TOKEN") or "")
wrk.headers["Accept"] = "application/json"
wrk.headers["Content-Type"] = "application/json"

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"duration_us":%d,"bytes":%d,"err_connect":%d,"err_read":%d,"err_write":%d,"err_status":%d,"err_timeout":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,"mean_us":%.1f}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end
