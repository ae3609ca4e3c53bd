#!/usr/bin/env bash
# Builds the image, starts compose.yaml (PostgreSQL, two servers, nginx; `--wait`: until both servers'
# health checks pass) and checks answers through the load balancer; removes what it started. Needs Docker.
set -euo pipefail
cd "$(dirname "$0")/.."
export COMPOSE_PROJECT_NAME=ci-smoke LB_PORT="${LB_PORT:-18080}"
trap 'docker compose down --volumes --remove-orphans >/dev/null 2>&1 || true' EXIT
docker compose up --detach --build --wait
node -e '
  const url = `http://127.0.0.1:${process.env.LB_PORT}`;
  (async () => {
    for (let i = 0; i < 20; i++) {
      const response = await fetch(`${url}/healthz`);
      if (!response.ok) throw new Error(`/healthz answered ${response.status}`);
    }
    const root = await (await fetch(url)).json();
    if (!String(root.message).includes("/graphql")) throw new Error("unexpected / answer");
    console.log(`compose: 20 health checks through the load balancer at ${url}: ok`);
  })().catch((error) => { console.error(error.message); process.exit(1); });
'
