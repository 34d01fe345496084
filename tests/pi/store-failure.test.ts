// The fold store becomes unwritable mid-session (replaced by a file; made immutable where chattr
// works): pi-fold must leave the session no worse off than Pi alone. Real in-process Pi sessions on
// the faux provider, 24k window, Pi's threshold compaction on. While the store cannot be written, no
// request the faux provider is sent is over the window (pi-fold no longer holds Pi's compaction
// back on the promise of a commit that cannot land), Pi's compaction runs, the human is told once in
// the TUI what failed, where and what to do, automatic folding pauses with that reason, and no fold
// record names a source that is not in the store. Once the store is repaired, folding resumes by
// itself at the next boundary and the pause reason clears.

import { execFileSync } from "node:child_process";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { SourceStore } from "../../src/runtime/index.ts";
import { FoldStore } from "../../src/store/index.ts";
import { PROBE_READ_ONLY } from "./epoch-helpers.ts";
import { callProbes, cleanupTempDirs, createHarness, type Harness, say, slashCommand } from "./harness.ts";
import { compactions, decisionRecords, namedSources, overWindow, scripted, storeDir } from "./safety-helpers.ts";

afterAll(cleanupTempDirs);

const WINDOW = 24_000;

/** Whether `chattr +i` works here (root with CAP_LINUX_IMMUTABLE): the EPERM case of the issue. */
function chattrWorks(): boolean {
	const probe = join(process.env.TMPDIR ?? "/tmp", `pi-fold-chattr-${process.pid}`);
	try {
		mkdirSync(probe, { recursive: true });
		execFileSync("chattr", ["+i", probe], { stdio: "ignore" });
		execFileSync("chattr", ["-i", probe], { stdio: "ignore" });
		return true;
	} catch {
		return false;
	} finally {
		rmSync(probe, { recursive: true, force: true });
	}
}

/** How the store breaks, and how it is repaired (`storeFactory`: the store the session is given). */
interface Breakage {
	readonly name: string;
	break(dir: string): void;
	repair(dir: string): void;
	readonly storeFactory?: (dir: string) => SourceStore;
}

const replacedByFile: Breakage = {
	name: "replaced by a file",
	break(dir) {
		renameSync(dir, `${dir}.moved`);
		writeFileSync(dir, "not a folder\n");
	},
	repair(dir) {
		rmSync(dir);
		renameSync(`${dir}.moved`, dir);
	},
};

const immutable: Breakage = {
	name: "made immutable",
	break(dir) {
		execFileSync("chattr", ["-R", "+i", dir]);
	},
	repair(dir) {
		execFileSync("chattr", ["-R", "-i", dir]);
	},
};

/** A full disk: the real store, whose writes fail with ENOSPC while the disk is full (reads still work). */
const disk = { full: false };
const fullDisk: Breakage = {
	name: "on a full disk",
	break() {
		disk.full = true;
	},
	repair() {
		disk.full = false;
	},
	storeFactory(dir) {
		const store = new FoldStore(dir);
		const full = () =>
			Object.assign(new Error(`ENOSPC: no space left on device, write '${dir}/tmp'`), { code: "ENOSPC" });
		return Object.assign(store, {
			put: (source: string) => (disk.full ? Promise.reject(full()) : FoldStore.prototype.put.call(store, source)),
			putFold: (id: string, leaves: readonly { id: string; data: Uint8Array }[]) =>
				disk.full ? Promise.reject(full()) : FoldStore.prototype.putFold.call(store, id, leaves),
		});
	},
};

/** One turn of reading: a probe of ~1,400 tokens, then the next. */
const turns = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => callProbes(`big-${prefix}${i}`));

async function session(breakage: Breakage): Promise<Harness> {
	return createHarness({
		...(breakage.storeFactory ? { extras: { storeFactory: breakage.storeFactory } } : {}),
		ui: "tui",
		persistent: true,
		contextWindow: WINDOW,
		compaction: { enabled: true, reserveTokens: 16_384, keepRecentTokens: 4_000 },
		options: { foldScheduling: "cost", readOnlyTools: PROBE_READ_ONLY, summarizer: "deterministic" },
	});
}

describe.each([
	{ breakage: replacedByFile, skip: false },
	{ breakage: immutable, skip: !chattrWorks() },
	{ breakage: fullDisk, skip: false },
])("the fold store $breakage.name mid-session", ({ breakage, skip }) => {
	it.skipIf(skip)(
		"no request over the window, Pi's compaction runs, the human is told once, folding resumes after repair",
		async () => {
			const h = await session(breakage);
			scripted(h, [...turns("a", 14), say("first part done")]);
			await h.run("read the first part");
			const dir = storeDir(h);
			const foldsBefore = namedSources(h).length;
			expect(foldsBefore).toBeGreaterThan(0);

			breakage.break(dir);
			const noticesAt = h.ui.notices.length;
			const requestsAt = h.requests.length;
			const compactionsAt = compactions(h);
			const decisionsAt = h.runtime.telemetry.view().compactions.total;
			let paused: string | null = null;
			let context = "";
			let told: string[] = [];
			try {
				scripted(h, [...turns("b", 30), say("second part done")]);
				await h.run("read the second part");
				paused = h.runtime.pauseReason();
				told = h.ui.notices.slice(noticesAt).map((n) => n.message);
				context = await slashCommand(h, "/context");
			} finally {
				breakage.repair(dir);
			}
			// The decisions beside Pi's compaction while the store was broken (the telemetry keeps the latest).
			const { total, recent } = h.runtime.telemetry.view().compactions;
			expect(total - decisionsAt).toBeLessThanOrEqual(recent.length);
			const threshold = recent.slice(recent.length - (total - decisionsAt)).filter((c) => c.reason === "threshold");
			expect(threshold.length).toBeGreaterThan(0);

			// Paused, and the human's view says why.
			expect(paused).toMatch(/^automatic folding paused: the fold store at .* cannot be written \(/);
			expect(context).toContain(`Automatic folding is paused: the fold store at ${dir} cannot be written`);
			// Never a request over the window because pi-fold held Pi back.
			expect(overWindow(h, WINDOW, requestsAt)).toEqual([]);
			expect(compactions(h)).toBeGreaterThan(compactionsAt);
			// Cancelled only while the request fitted and no write had failed yet; passed from the failure on.
			const firstPassed = threshold.findIndex((c) => c.decision === "passed");
			expect(firstPassed).toBeGreaterThanOrEqual(0);
			expect(threshold.slice(firstPassed).every((c) => c.decision === "passed")).toBe(true);
			for (const c of threshold.slice(0, firstPassed)) expect(c.why).toMatch(/fits the serving budget of 19,904$/);
			expect(threshold[firstPassed]?.why).toBe("automatic folding is paused: the fold store cannot be written");
			// Named once: what failed, where, what to do.
			const storeLines = told.filter((m) => m.includes(dir) && m.includes("fold store"));
			expect(storeLines).toHaveLength(1);
			expect(storeLines[0]).toMatch(/cannot be written/);
			expect(storeLines[0]).toMatch(/automatic folding is paused/);
			expect(storeLines[0]).toMatch(/make the folder writable|put the folder back|free disk space/i);
			expect(told.some((m) => m.startsWith("turn_end failed"))).toBe(false);
			// Nothing half-written is referenced: every fold record names a source the store holds.
			const store = h.runtime.store(h.host());
			for (const named of namedSources(h)) expect(store.has(named.sha256), named.foldId).toBe(true);

			// Repaired: the next boundary retries, the pause clears, folding resumes.
			const recordsAt = decisionRecords(h).length;
			scripted(h, [...turns("c", 16), say("third part done")]);
			await h.run("read the third part");
			expect(h.runtime.pauseReason()).toBeNull();
			const after = decisionRecords(h).slice(recordsAt);
			expect(after.some((r) => r.kind === "commit")).toBe(true);
			expect(after.some((r) => r.kind === "fold" || r.kind === "mark")).toBe(true);
			for (const named of namedSources(h)) expect(store.has(named.sha256), named.foldId).toBe(true);
			expect(h.ui.notices.slice(noticesAt).some((n) => /fold store .* is writable again/.test(n.message))).toBe(true);
			expect(overWindow(h, WINDOW)).toEqual([]);
		},
		120_000,
	);
});
