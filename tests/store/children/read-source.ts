// Child process: reads a fold source (argv: <store dir> <sha256> <expected bytes or -> [verify]) with
// read and readSlice (and verifyStore, given "verify") and prints what each did as JSON ({ ok, length }
// or { ok: false, reason, message }; the store's issues), then exits on its own. Used for cases where the process itself is at stake (a FIFO at a blob path) and,
// bundled, as an unprivileged user.

import { FoldStore, SourceVerificationError } from "../../../src/store/index.ts";
import { verifyStore } from "../../../src/verify/index.ts";

const [dir, sha, expected, verify] = process.argv.slice(2) as [string, string, string, string | undefined];
const store = new FoldStore(dir, { sweepTemp: false });
const bytes = expected === "-" ? undefined : Number(expected);

async function attempt(fn: () => Promise<string>): Promise<Record<string, unknown>> {
	const started = performance.now();
	try {
		const text = await fn();
		return { ok: true, length: text.length, ms: performance.now() - started };
	} catch (error) {
		const reason = error instanceof SourceVerificationError ? error.reason : "other";
		return { ok: false, reason, message: (error as Error).message, ms: performance.now() - started };
	}
}

const results = {
	read: await attempt(() => store.read(sha, "fold f-child", bytes)),
	slice: await attempt(async () => (await store.readSlice(sha, 10, 100, "fold f-child", bytes)).text),
	issues: verify === "verify" ? (await verifyStore(dir, { workers: 0 })).issues : undefined,
};
process.stdout.write(`${JSON.stringify(results)}\n`);
