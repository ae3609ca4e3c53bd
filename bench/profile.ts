/**
 * `pnpm bench:profile <file.cpuprofile | folder>`: where a `--cpu-prof` profile (BENCH_CPU_PROF=1 pnpm
 * bench) spends its time: self time by package or project folder, and the hottest functions.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const target = process.argv[2];
if (!target) {
  console.error('usage: pnpm bench:profile <file.cpuprofile | folder of them>');
  process.exit(2);
}
const path = resolve(process.env.INIT_CWD ?? process.cwd(), target);
const files = statSync(path).isDirectory()
  ? readdirSync(path)
      .filter((name) => name.endsWith('.cpuprofile'))
      .map((name) => resolve(path, name))
  : [path];

/** `node_modules/.pnpm/x@1/node_modules/x/…` → `x`; project sources by package folder; node internals. */
function area(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return 'node:*';
  const project = /\/(packages|apps)\/([^/]+)\//.exec(url);
  return project ? `${project[1]}/${project[2]}` : url;
}

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + delta);
    total += delta;
  });
  const idle = [...self]
    .filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)')
    .reduce((s, [, t]) => s + t, 0);
  const busy = total - idle;
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, time] of self) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') continue;
    const where = area(node.callFrame.url, node.callFrame.functionName);
    areas.set(where, (areas.get(where) ?? 0) + time);
    const name = `${node.callFrame.functionName || '(anonymous)'} ${where}${node.callFrame.url ? `:${node.callFrame.lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + time);
  }
  const pct = (time: number) => `${((time / busy) * 100).toFixed(1).padStart(5)}%`;
  console.log(
    `\n${file}\nbusy ${(busy / 1e6).toFixed(1)} s of ${(total / 1e6).toFixed(1)} s (idle ${(idle / 1e6).toFixed(1)} s)`,
  );
  console.log('self time by area:');
  for (const [name, time] of [...areas].sort((a, b) => b[1] - a[1]).slice(0, 20))
    console.log(`  ${pct(time)}  ${name}`);
  console.log('hottest functions (self):');
  for (const [name, time] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`  ${pct(time)}  ${name}`);
}
