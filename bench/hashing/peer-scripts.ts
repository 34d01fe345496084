// The peers `pi-fold bench --cli` runs as fresh processes beside `pi-fold verify` and `hash`: the
// short node:crypto script a person would write to check a store (4 MiB reads, each blob in turn,
// exit 1 on a mismatch; given a file, it prints its digest like sha256sum), and the same script
// sharded over N worker threads (blobs dealt largest first to the least loaded thread). They are
// written into the benchmark's temporary folder as .mjs files. Pure: strings only.

/** node:crypto on one thread: `node peer-node.mjs STORE_DIR | FILE`. */
export const NODE_ONE_THREAD = `// node:crypto, one thread, 4 MiB reads, each blob in turn; or one file, printed like sha256sum.
import { createHash } from "node:crypto";
import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
const buf = Buffer.allocUnsafe(4 << 20);
function hashFile(path) { const h = createHash("sha256"), fd = openSync(path, "r");
  for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0; ) h.update(buf.subarray(0, n));
  closeSync(fd); return h.digest("hex"); }
const arg = process.argv[2], root = join(arg, "sha256");
if (!statSync(arg).isDirectory()) console.log(\`\${hashFile(arg)}  \${arg}\`);
else { let bad = 0; for (const fan of readdirSync(root)) for (const name of readdirSync(join(root, fan)))
  if (name.length === 64 && hashFile(join(root, fan, name)) !== name) bad++; process.exitCode = bad ? 1 : 0; }
`;

/** The same script sharded over N worker threads: `node peer-node-threads.mjs STORE_DIR N`. */
export const NODE_THREADS = `// The one-thread script, sharded over N worker threads (largest blobs first, to the least loaded).
import { createHash } from "node:crypto";
import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
function hashFile(path, buf) { const h = createHash("sha256"), fd = openSync(path, "r");
  for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0; ) h.update(buf.subarray(0, n));
  closeSync(fd); return h.digest("hex"); }
if (!isMainThread) { const buf = Buffer.allocUnsafe(4 << 20); let bad = 0;
  for (const [path, name] of workerData) if (hashFile(path, buf) !== name) bad++;
  parentPort.postMessage(bad); }
else { const root = join(process.argv[2], "sha256"), n = Number(process.argv[3]), files = [];
  for (const fan of readdirSync(root)) for (const name of readdirSync(join(root, fan)))
    if (name.length === 64) files.push([join(root, fan, name), name, statSync(join(root, fan, name)).size]);
  const shards = Array.from({ length: n }, () => ({ bytes: 0, files: [] }));
  for (const f of files.sort((a, b) => b[2] - a[2])) {
    const s = shards.reduce((a, b) => (b.bytes < a.bytes ? b : a)); s.bytes += f[2]; s.files.push(f); }
  const bad = await Promise.all(shards.map((s) => new Promise((ok, fail) =>
    new Worker(new URL(import.meta.url), { workerData: s.files }).once("message", ok).once("error", fail))));
  process.exitCode = bad.some((b) => b > 0) ? 1 : 0; }
`;

/** Preloaded (--import) into the processes whose peak memory is measured: writes maxRSS (KiB) on exit. */
export const RSS_PRELOAD = `import { writeFileSync } from "node:fs";
import { isMainThread } from "node:worker_threads";
if (isMainThread && process.env.PI_FOLD_BENCH_RSS_FILE)
  process.on("exit", () => writeFileSync(process.env.PI_FOLD_BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));
`;
