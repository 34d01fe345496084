import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_EVIDENCE_CAP_BYTES, EvidenceLedger, EvidenceStore } from "../../src/store/index.ts";
import { sha256Hex } from "../../src/verify/index.ts";
import { dirsUnder, filesUnder, tempDir } from "./helpers.ts";

const NS = { kind: "namespace", name: "pi-fold-active-context-mcp" } as const;
const WRITER = join(import.meta.dirname, "children", "evidence-writer.ts");
const GH = { kind: "mcp", name: "github" } as const;

describe("EvidenceStore", () => {
	it("writes read-only artifacts (0444 in 0700 folders) under mcp/<server>/ and ns/<namespace>/", async () => {
		const dir = join(tempDir(), "pi-fold-evidence");
		const store = new EvidenceStore(dir, { durable: false });
		const a = await store.put(GH, "issue list …");
		const b = await store.put(NS, "big read");
		expect(a).toMatchObject({ status: "written", sha256: sha256Hex("issue list …"), bytes: 14 });
		expect(a.status !== "refused" && a.path).toBe(
			`mcp/github/sha256/${sha256Hex("issue list …").slice(0, 2)}/${sha256Hex("issue list …")}`,
		);
		expect(b.status !== "refused" && b.path).toMatch(/^ns\/pi-fold-active-context-mcp\/sha256\//);
		for (const rel of filesUnder(dir))
			expect(statSync(join(dir, rel)).mode & 0o777).toBe(rel.startsWith("sessions/") ? 0o600 : 0o444);
		expect(filesUnder(dir).filter((f) => f.startsWith("sessions/"))).toEqual(["sessions/default.ledger"]);
		for (const folder of dirsUnder(dir)) expect(statSync(folder).mode & 0o777).toBe(0o700);
		expect(filesUnder(dir).some((f) => f.includes("/tmp/"))).toBe(false);
		if (a.status === "refused") throw new Error("unreachable");
		expect(readFileSync(join(dir, a.path), "utf8")).toBe("issue list …");
		expect(await store.read(GH, a.sha256)).toBe("issue list …");
		expect(() => store.put({ kind: "mcp", name: "../x" }, "y")).toThrow(TypeError);
	});

	it("enforces the cap cumulatively across many results, refusing (not truncating) the one that would cross it", async () => {
		const dir = tempDir();
		const store = new EvidenceStore(dir, { capBytes: 10_000, durable: false });
		const results = await Promise.all(Array.from({ length: 30 }, (_, i) => store.put(NS, `${i}`.padEnd(1000, "."))));
		expect(results.filter((r) => r.status === "written")).toHaveLength(10);
		const refused = results.filter((r) => r.status === "refused");
		expect(refused).toHaveLength(20);
		expect(refused[0]).toMatchObject({ bytes: 1000, usedBytes: 10_000, capBytes: 10_000 });
		expect(await store.usage()).toBe(10_000);
		const stored = filesUnder(dir).filter((f) => /\/[0-9a-f]{64}$/.test(f));
		expect(stored).toHaveLength(10);
		for (const f of stored) expect(statSync(join(dir, f)).size).toBe(1000);
		// a smaller one still fits nowhere; the same content again is free (stored once)
		expect((await store.put(NS, "z")).status).toBe("refused");
		const first = results.find((r) => r.status === "written");
		if (!first || first.status === "refused") throw new Error("unreachable");
		expect(await store.put(NS, readFileSync(join(dir, first.path), "utf8"))).toMatchObject({ status: "existing" });
	});

	it("recovers the session's usage after a restart from its ledger", async () => {
		const dir = tempDir();
		const before = new EvidenceStore(dir, { capBytes: 5000, durable: false, sessionId: "s1" });
		await before.put(GH, "a".repeat(2000));
		await before.put(NS, "b".repeat(2000));
		const after = new EvidenceStore(dir, { capBytes: 5000, durable: false, sessionId: "s1" });
		expect(await after.usage()).toBe(4000);
		expect((await after.put(NS, "c".repeat(1001))).status).toBe("refused");
		expect((await after.put(NS, "c".repeat(1000))).status).toBe("written");
		expect(await after.put(GH, "a".repeat(2000))).toMatchObject({ status: "existing" });
		expect(await after.usage()).toBe(5000);
	});

	it("counts the cap by session id: a new session in the same folder starts from zero", async () => {
		const dir = tempDir();
		const full = new EvidenceStore(dir, { capBytes: 3000, durable: false, sessionId: "old-session" });
		await full.put(NS, "a".repeat(3000));
		expect((await full.put(NS, "b")).status).toBe("refused");
		const fresh = new EvidenceStore(dir, { capBytes: 3000, durable: false, sessionId: "new-session" });
		expect(await fresh.usage()).toBe(0);
		expect(await fresh.put(NS, "c".repeat(2500))).toMatchObject({ status: "written" });
		// the same content another session stored: stored once on disk, charged to this session too
		expect(await fresh.put(NS, "a".repeat(3000))).toMatchObject({ status: "refused", usedBytes: 2500 });
		const other = new EvidenceStore(dir, { capBytes: 3000, durable: false, sessionId: "third" });
		expect(await other.put(NS, "a".repeat(3000))).toMatchObject({ status: "existing" });
		expect(await other.usage()).toBe(3000);
		expect(await full.usage()).toBe(3000);
	});

	it("defaults to a 512 MiB cap (checked with a ledger line, not 512 MiB of writes)", async () => {
		expect(DEFAULT_EVIDENCE_CAP_BYTES).toBe(512 * 1024 * 1024);
		const dir = tempDir();
		mkdirSync(join(dir, "sessions"));
		const big = DEFAULT_EVIDENCE_CAP_BYTES - 1000;
		writeFileSync(
			join(dir, "sessions", "s.ledger"),
			`R 0123456789abcdef ${big} ${DEFAULT_EVIDENCE_CAP_BYTES} ns/x/${"ab".padEnd(64, "0")}\n`,
		);
		const store = new EvidenceStore(dir, { durable: false, sessionId: "s" });
		expect(store.capBytes).toBe(DEFAULT_EVIDENCE_CAP_BYTES);
		expect(await store.usage()).toBe(big);
		expect(await store.put(NS, "x".repeat(1001))).toMatchObject({ status: "refused", usedBytes: big });
		expect((await store.put(NS, "x".repeat(600))).status).toBe("written");
		expect((await store.put(GH, "y".repeat(600))).status).toBe("refused");
		expect((await store.put(GH, "y".repeat(400))).status).toBe("written");
		expect(await store.usage()).toBe(DEFAULT_EVIDENCE_CAP_BYTES);
	});

	it("decides reservations in ledger order, so appends that raced past the cap are refused on replay", () => {
		const dir = tempDir();
		mkdirSync(join(dir, "sessions"));
		const key = (n: number) => `ns/x/${String(n).padStart(64, "0")}`;
		// two processes both saw 0 used and both appended 60,000 bytes under a 100,000 cap
		writeFileSync(join(dir, "sessions", "s.ledger"), `R aa 60000 100000 ${key(1)}\nR bb 60000 100000 ${key(2)}\n`);
		const ledger = new EvidenceLedger(dir, "s");
		expect(ledger.usage()).toBe(60_000);
		expect(ledger.holds(key(1))).toBe(true);
		expect(ledger.holds(key(2))).toBe(false);
		expect(ledger.reserve(key(3), 40_000, 100_000)).toMatchObject({ status: "accepted", used: 100_000 });
		expect(ledger.reserve(key(1), 60_000, 100_000)).toMatchObject({ status: "duplicate" });
		const id = (ledger.reserve(key(4), 0, 100_000) as { id: string }).id;
		ledger.release(id);
		expect(ledger.holds(key(4))).toBe(false);
		expect(new EvidenceLedger(dir, "s").usage()).toBe(100_000);
	});

	it("two processes of one session never overshoot its cap together; another session keeps its own", async () => {
		const dir = tempDir();
		const startAt = String(Date.now() + 1500);
		const run = (session: string, tag: string) =>
			new Promise<{ statuses: string[]; usage: number }>((resolve, reject) => {
				const child = spawn(process.execPath, [WRITER, dir, session, "100000", "40", "5000", tag, startAt], {
					stdio: ["ignore", "pipe", "inherit"],
				});
				let out = "";
				child.stdout.on("data", (d: Buffer) => {
					out += d.toString("utf8");
				});
				child.on("error", reject);
				// "close", not "exit": only then has all of the child's stdout been read.
				child.on("close", (code) =>
					code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`writer exited ${code}`)),
				);
			});
		const [a, b, c] = await Promise.all([run("shared-session", "a"), run("shared-session", "b"), run("other", "c")]);
		const written = [...a.statuses, ...b.statuses].filter((s) => s === "written").length;
		expect(written).toBe(20); // 100,000 / 5,000: exactly the cap, never more
		expect(a.statuses.length + b.statuses.length).toBe(80);
		expect(c.statuses.filter((s) => s === "written")).toHaveLength(20);
		const shared = new EvidenceStore(dir, { capBytes: 100_000, sessionId: "shared-session" });
		expect(await shared.usage()).toBe(100_000);
		expect(await new EvidenceStore(dir, { capBytes: 100_000, sessionId: "other" }).usage()).toBe(100_000);
		const blobs = filesUnder(dir).filter((f) => /\/[0-9a-f]{64}$/.test(f));
		expect(blobs).toHaveLength(40); // refused puts write nothing
	});
});
