import { mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_EVIDENCE_CAP_BYTES, EvidenceStore } from "../../src/store/index.ts";
import { sha256Hex } from "../../src/verify/index.ts";
import { dirsUnder, filesUnder, tempDir } from "./helpers.ts";

const NS = { kind: "namespace", name: "pi-fold-active-context-mcp" } as const;
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
		for (const rel of filesUnder(dir)) expect(statSync(join(dir, rel)).mode & 0o777).toBe(0o444);
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

	it("recovers its usage after a restart by scanning the folder", async () => {
		const dir = tempDir();
		const before = new EvidenceStore(dir, { capBytes: 5000, durable: false });
		await before.put(GH, "a".repeat(2000));
		await before.put(NS, "b".repeat(2000));
		const after = new EvidenceStore(dir, { capBytes: 5000, durable: false });
		expect(await after.usage()).toBe(4000);
		expect((await after.put(NS, "c".repeat(1001))).status).toBe("refused");
		expect((await after.put(NS, "c".repeat(1000))).status).toBe("written");
		expect(await after.put(GH, "a".repeat(2000))).toMatchObject({ status: "existing" });
		expect(await after.usage()).toBe(5000);
	});

	it("defaults to a 512 MiB cap (checked with a sparse artifact, not 512 MiB of writes)", async () => {
		expect(DEFAULT_EVIDENCE_CAP_BYTES).toBe(512 * 1024 * 1024);
		const dir = tempDir();
		const fake = "ab".padEnd(64, "0");
		const fan = join(dir, "ns", NS.name, "sha256", "ab");
		mkdirSync(fan, { recursive: true });
		writeFileSync(join(fan, fake), "");
		truncateSync(join(fan, fake), DEFAULT_EVIDENCE_CAP_BYTES - 1000); // sparse: no real blocks
		const store = new EvidenceStore(dir, { durable: false });
		expect(store.capBytes).toBe(DEFAULT_EVIDENCE_CAP_BYTES);
		expect(await store.usage()).toBe(DEFAULT_EVIDENCE_CAP_BYTES - 1000);
		expect(await store.put(NS, "x".repeat(1001))).toMatchObject({
			status: "refused",
			usedBytes: DEFAULT_EVIDENCE_CAP_BYTES - 1000,
		});
		expect((await store.put(NS, "x".repeat(600))).status).toBe("written");
		expect((await store.put(GH, "y".repeat(600))).status).toBe("refused");
		expect((await store.put(GH, "y".repeat(400))).status).toBe("written");
		expect(await store.usage()).toBe(DEFAULT_EVIDENCE_CAP_BYTES);
	});
});
