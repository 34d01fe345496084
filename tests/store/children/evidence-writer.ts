// Child process for tests/store/evidence.test.ts: one session writing evidence into a shared folder.
// argv: <evidence dir> <session id> <cap bytes> <count> <bytes each> <tag> <start at (epoch ms)>.
// Waits until the start time (so concurrent writers collide), puts one artifact after another, and prints
// one JSON line: the status of each put and the session's usage at the end.

import { EvidenceStore } from "../../../src/store/index.ts";

const [dir, sessionId, cap, count, size, tag, startAt] = process.argv.slice(2) as [
	string,
	string,
	string,
	string,
	string,
	string,
	string,
];
// Start together: each writer sleeps until the agreed moment (at once if it is already past).
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
const store = new EvidenceStore(dir, { sessionId, capBytes: Number(cap), durable: false });
const owner = { kind: "namespace", name: "shared" } as const;
// One put at a time, so the two writers' reservations interleave in the shared ledger.
const puts = [];
for (let i = 0; i < Number(count); i++) puts.push(await store.put(owner, `${tag}-${i}-`.padEnd(Number(size), "e")));
process.stdout.write(`${JSON.stringify({ statuses: puts.map((p) => p.status), usage: await store.usage() })}\n`);
