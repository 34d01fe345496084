import { mkdtempSync } from "node:fs"; import { tmpdir } from "node:os"; import { join } from "node:path";
import { profiled } from "./cpu-profile.ts";
import { runSession } from "./request-latency-session.ts";
const n = Number(process.argv[2] ?? 1500);
const { profile } = await profiled(() => runSession({ requests: n, window: 65536, piFold: process.argv[3] !== "alone", compaction: true, root: mkdtempSync(join(tmpdir(), "prof-")) }), 1000);
const p: any = profile;
const nodes = new Map<number, any>(); for (const nd of p.nodes) nodes.set(nd.id, nd);
const parent = new Map<number, number>(); for (const nd of p.nodes) for (const c of nd.children ?? []) parent.set(c, nd.id);
const self = new Map<number, number>();
const s = p.samples ?? [], d = p.timeDeltas ?? [];
for (let i = 0; i < s.length; i++) self.set(s[i], (self.get(s[i]) ?? 0) + (d[i + 1] ?? 0) / 1000);
const key = (nd: any) => `${nd.callFrame.functionName || "(anon)"} ${nd.callFrame.url.replace(/.*node_modules\//, "").replace(/.*\/work\/main\//, "")}:${nd.callFrame.lineNumber + 1}`;
const bySelf = new Map<string, number>(), incl = new Map<string, number>();
for (const [id, ms] of self) {
  const nd = nodes.get(id); bySelf.set(key(nd), (bySelf.get(key(nd)) ?? 0) + ms);
  const seen = new Set<string>(); let cur: number | undefined = id;
  while (cur !== undefined) { const k = key(nodes.get(cur)); if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + ms); } cur = parent.get(cur); }
}
const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([n, ms]) => `${ms.toFixed(0).padStart(7)} ms  ${n}`).join("\n");
console.log("SELF\n" + top(bySelf, 25)); console.log("INCL\n" + top(incl, 50));
